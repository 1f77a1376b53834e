import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Logging
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Ann (the person), Bob and Cat (her responders) and Eve (a stranger), signed in over the real
/// OTP flow, on a real server; Ann has an active SOS.
struct ResponderPageFixture {
    let test: TestBackend
    let server: TestServer
    let links: ResponderLinks
    let ann: Caller, bob: Caller, cat: Caller, eve: Caller
    let alert: AlertRecord

    static let annPhone = "+15550005001"

    static func make(
        _ engine: Engine, logger: Logger? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> ResponderPageFixture {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, logger: logger, configure: configure)
        var people: [Caller] = []
        for (phone, name) in [(annPhone, "Ann"), ("+15550005002", "Bob"), ("+15550005003", "Cat"), ("+15550005009", "Eve")] {
            let caller = Caller.user(try await test.signIn(phone).user.id)
            _ = try await test.backend.profiles.update(caller: caller, ProfileUpdate(firstName: name, lastName: "Tester"))
            people.append(caller)
        }
        let (ann, bob, cat, eve) = (people[0], people[1], people[2], people[3])
        for responder in [bob, cat] {
            let code = try await test.backend.contacts.qrCode(caller: responder).id
            _ = try await test.backend.contacts.addContact(caller: ann, qrCodeID: code, roles: .responder)
        }
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 3600)
        let alert = try await test.backend.alerts.trigger(
            caller: ann, location: AlertLocation(latitude: 51.50735, longitude: -0.12776, accuracyMeters: 25, time: test.clock.now))
        test.clock.advance(by: 120)
        return ResponderPageFixture(
            test: test, server: server, links: test.backend.responderLinks(baseURL: server.baseURL),
            ann: ann, bob: bob, cat: cat, eve: eve, alert: alert)
    }

    /// The path of `responder`'s link to the alert, valid for the default 48 hours.
    func path(_ responder: Caller, alert: UUID? = nil) -> String {
        let url = links.url(alertID: alert ?? self.alert.id, responder: responder.userID, now: test.clock.now)
        return url.path
    }

    func count(_ sql: String) async throws -> Int {
        try await test.backend.database.query(SQL.raw(sql)).first?.int("n") ?? -1
    }

    /// The alert's status and resolution (the latter `nil` before migration 240's column).
    func alertState() async throws -> (status: String, resolution: String?) {
        let row = try #require(try await test.backend.database.query(SQL.raw("SELECT * FROM alerts WHERE id = '\(alert.id.uuidString.lowercased())'")).first)
        return (try row.string("status"), row.optionalString("resolution"))
    }

    /// A request that does not follow redirects, without an API key (a link is opened bare).
    func send(_ method: String, _ path: String, form: String? = nil, headers: [String: String] = [:]) async throws -> PageReply {
        try await BareHTTP.send(method, URL(string: "http://127.0.0.1:\(server.port)\(path)")!, form: form, headers: headers)
    }
}

/// URLSession without redirects: the tests see a form's 303 itself.
enum BareHTTP {
    final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    static let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)

    static func send(_ method: String, _ url: URL, form: String? = nil, headers: [String: String] = [:]) async throws -> PageReply {
        var request = URLRequest(url: url)
        request.timeoutInterval = 300
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let form {
            request.httpBody = Data(form.utf8)
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw PageTestError("not HTTP") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return PageReply(status: http.statusCode, headers: fields, text: String(decoding: data, as: UTF8.self))
    }
}

struct PageReply: Sendable {
    let status: Int
    /// By lower-case name.
    let headers: [String: String]
    let text: String
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

struct PageTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
