import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// QR codes as docs/security.md's "Consent" has them, over HTTP on both engines: a code links
/// only while its owner's screen shows it (`get-qr-code`, default 10 minutes) and only once;
/// unknown, expired and spent codes get one answer; nobody but the owner reads a code.
@Suite("contact consent: QR codes")
struct ContactConsentTests {
    /// Ann, Bob and Dan, signed in over the real OTP flow and named.
    struct People {
        let test: TestBackend
        let server: TestServer
        let ann: IssuedSession
        let bob: IssuedSession
        let dan: IssuedSession
    }

    static func people(_ engine: Engine, configure: (inout LifeSignalBackend.Configuration) -> Void = { _ in }) async throws -> People {
        let test = try await TestDatabases.backend(engine, configure: configure)
        let server = try await TestServer.start(test.backend)
        var sessions: [IssuedSession] = []
        for (phone, name) in [("+15550004001", "Ann"), ("+15550004002", "Bob"), ("+15550004003", "Dan")] {
            let session = try await test.signIn(phone)
            _ = try await test.backend.profiles.update(caller: .user(session.user.id), ProfileUpdate(firstName: name, lastName: "Tester"))
            sessions.append(session)
        }
        return People(test: test, server: server, ann: sessions[0], bob: sessions[1], dan: sessions[2])
    }

    /// `POST /functions/v1/<name>` as `who`.
    static func call(_ server: TestServer, _ name: String, _ who: IssuedSession, _ body: [String: any Sendable] = [:]) async throws -> TestServer.Reply {
        try await server.json("POST", "/functions/v1/\(name)", bearer: who.accessToken, body)
    }

    static func code(_ reply: TestServer.Reply) throws -> (id: String, expiresAt: String) {
        let json = try #require(reply.json, "\(reply.status) \(reply.text)")
        #expect(reply.status == 200 && json["success"] as? Bool == true, "\(reply.status) \(reply.text)")
        return (try #require(json["qrCodeId"] as? String, "\(reply.text)"), try #require(json["expiresAt"] as? String, "\(reply.text)"))
    }

    @Test(
        "get-qr-code mints a code and shows the same one until it expires; expired, spent and unknown codes get one 404",
        arguments: Engine.allCases)
    func lifetime(engine: Engine) async throws {
        let people = try await Self.people(engine)
        let (test, server) = (people.test, people.server)
        defer { Task { await server.stop() } }
        let start = test.clock.now
        let first = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        #expect(first.expiresAt == Timestamp.format(start.addingTimeInterval(600)), "the default lifetime is 10 minutes")
        test.clock.advance(by: 599)
        let again = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        #expect(again == first, "the screen shows one code until it expires")
        let looked = try await Self.call(server, "lookup-qr-code", people.bob, ["qrCodeId": first.id])
        #expect(looked.status == 200 && looked.json?["name"] as? String == "Ann Tester", "\(looked.text)")

        // Past its lifetime the code is refused exactly as a code nobody ever had.
        test.clock.advance(by: 2)
        let unknown = try await Self.call(server, "lookup-qr-code", people.bob, ["qrCodeId": UUID().uuidString.lowercased()])
        #expect(unknown.status == 404 && unknown.json?["code"] as? String == "not_found", "\(unknown.status) \(unknown.text)")
        let expired = try await Self.call(server, "lookup-qr-code", people.bob, ["qrCodeId": first.id])
        #expect(expired.status == 404 && expired.text == unknown.text, "\(expired.status) \(expired.text)")
        let expiredAdd = try await Self.call(server, "add-contact-by-qr", people.bob, ["qrCodeId": first.id, "isResponder": true, "isDependent": false])
        #expect(expiredAdd.status == 404 && expiredAdd.text == unknown.text, "\(expiredAdd.status) \(expiredAdd.text)")
        #expect(try await test.count("contacts") == 0)

        // Shown again, it is a new code; a scan links at once and spends it.
        let second = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        #expect(second.id != first.id && second.expiresAt == Timestamp.format(test.clock.now.addingTimeInterval(600)))
        let added = try await Self.call(server, "add-contact-by-qr", people.bob, ["qrCodeId": second.id, "isResponder": true, "isDependent": false])
        #expect(added.status == 200 && (added.json?["contact"] as? [String: any Sendable])?["isResponder"] as? Bool == true, "\(added.text)")
        #expect(try await test.count("contacts") == 2)
        for (name, body) in [
            ("lookup-qr-code", ["qrCodeId": second.id] as [String: any Sendable]),
            ("add-contact-by-qr", ["qrCodeId": second.id, "isResponder": false, "isDependent": true]),
        ] {
            let spent = try await Self.call(server, name, people.dan, body)
            #expect(spent.status == 404 && spent.text == unknown.text, "\(name) with a spent code: \(spent.status) \(spent.text)")
        }
        #expect(try await test.count("contacts") == 2, "a spent code linked Dan")
        let third = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        #expect(third.id != second.id, "a spent code is not shown again")

        // reset-qr-code answers the same shape and ends the shown code at once.
        let reset = try Self.code(try await Self.call(server, "reset-qr-code", people.ann))
        #expect(reset.id != third.id)
        let old = try await Self.call(server, "lookup-qr-code", people.dan, ["qrCodeId": third.id])
        #expect(old.status == 404 && old.text == unknown.text, "\(old.text)")
        #expect(try Self.code(try await Self.call(server, "get-qr-code", people.ann)) == reset)
        let anonymous = try await server.json("POST", "/functions/v1/get-qr-code", [:])
        #expect(anonymous.status == 401, "\(anonymous.status) \(anonymous.text)")
    }

    @Test("scanners racing for one shown code: exactly one links, the owner is told once", arguments: Engine.allCases)
    func racingScans(engine: Engine) async throws {
        let people = try await Self.people(engine)
        let (test, server) = (people.test, people.server)
        defer { Task { await server.stop() } }
        var scanners = [people.bob, people.dan]
        for phone in ["+15550004004", "+15550004005"] { scanners.append(try await test.signIn(phone)) }
        let code = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for scanner in scanners {
                group.addTask {
                    try await Self.call(server, "add-contact-by-qr", scanner, ["qrCodeId": code.id, "isResponder": false, "isDependent": true]).status
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.sorted() == [200, 404, 404, 404], "\(statuses)")
        #expect(try await test.count("contacts") == 2)
        let told = try await test.backend.notifications.notifications(caller: .user(people.ann.user.id), limit: 100)
        #expect(told.filter { $0.type == .contactAdded }.count == 1)
    }

    @Test("the lifetime is a backend setting", arguments: Engine.allCases)
    func configuredLifetime(engine: Engine) async throws {
        let people = try await Self.people(engine) { $0.qrCodeLifetime = 30 }
        let (test, server) = (people.test, people.server)
        defer { Task { await server.stop() } }
        let code = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        #expect(code.expiresAt == Timestamp.format(test.clock.now.addingTimeInterval(30)))
        test.clock.advance(by: 31)
        let expired = try await Self.call(server, "add-contact-by-qr", people.bob, ["qrCodeId": code.id, "isResponder": true, "isDependent": false])
        #expect(expired.status == 404, "\(expired.status) \(expired.text)")
    }

    @Test("nobody but its owner reads a QR code: not /rest/v1, not Realtime, not get-contacts, not a scan's reply", arguments: Engine.allCases)
    func onlyTheOwnerReadsTheCode(engine: Engine) async throws {
        let people = try await Self.people(engine)
        let (test, server) = (people.test, people.server)
        defer { Task { await server.stop() } }
        // Bob links to Ann in both roles over a code she showed; Dan is a stranger.
        let shown = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        let added = try await Self.call(server, "add-contact-by-qr", people.bob, ["qrCodeId": shown.id, "isResponder": true, "isDependent": false])
        #expect(added.status == 200, "\(added.text)")
        var sockets: [RealtimeTestSocket] = []
        for viewer in [people.bob, people.dan] {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            let joined = try await RealtimeTests.join(socket, topic: "realtime:users", table: "users", token: viewer.accessToken, ref: "1")
            #expect(joined["status"] as? String == "ok", "\(joined)")
            sockets.append(socket)
        }
        defer { for socket in sockets { Task { await socket.close() } } }

        let current = try Self.code(try await Self.call(server, "get-qr-code", people.ann))
        let reset = try Self.code(try await Self.call(server, "reset-qr-code", people.ann))
        let ownRow = try await server.request("GET", "/rest/v1/users?select=qr_code_id,qr_code_expires_at", bearer: people.ann.accessToken)
        #expect(ownRow.jsonArray?.first?["qr_code_id"] as? String == reset.id, "the owner reads their code: \(ownRow.text)")
        for code in [current.id, reset.id] {
            for viewer in [people.bob, people.dan] {
                let rows = try await server.request("GET", "/rest/v1/users?select=id,qr_code_id,qr_code_expires_at", bearer: viewer.accessToken)
                #expect(rows.status == 200 && rows.jsonArray?.map { $0["id"] as? String } == [viewer.user.id.description], "\(rows.text)")
                #expect(!rows.text.contains(code))
                let byCode = try await server.request("GET", "/rest/v1/users?select=id&qr_code_id=eq.\(code)", bearer: viewer.accessToken)
                #expect(byCode.status == 200 && byCode.jsonArray?.isEmpty == true, "\(byCode.text)")
                let list = try await Self.call(server, "get-contacts", viewer)
                #expect(list.status == 200 && !list.text.contains(code), "\(list.text)")
            }
            #expect(!added.text.contains(code))
        }
        // Realtime: Ann's code changes were never sent to Bob or Dan; each hears their own
        // change next (changes arrive in commit order).
        for (viewer, socket) in zip([people.bob, people.dan], sockets) {
            _ = try await test.backend.profiles.update(caller: .user(viewer.user.id), ProfileUpdate(lastName: "Changed"))
            let heard = try await RealtimeTests.nextChange(socket)
            let record = heard.data["record"] as? [String: any Sendable]
            #expect(record?["id"] as? String == viewer.user.id.description, "\(heard.data)")
        }
    }
}
