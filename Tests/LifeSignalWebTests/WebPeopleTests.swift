import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// People and responding over a real socket: linking by the QR code's link, a dependent's
/// alert answered from the page, and that a page refuses exactly what the API refuses.
@Suite("web app: people")
struct WebPeopleTests {
    /// Ann (who checks in) and Bob (who looks out for her), each in a browser of their own.
    static func pair(_ engine: Engine) async throws -> (TestBackend, TestServer, ann: WebBrowser, bob: WebBrowser) {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        let ann = WebBrowser(server)
        let bob = WebBrowser(server)
        _ = try await ann.signIn(test, phone: "+15550007201")
        _ = try await bob.signIn(test, phone: "+15550007202")
        _ = try await ann.submit("/settings", Self.settings(name: "Ann"), from: "/settings")
        _ = try await bob.submit("/settings", Self.settings(name: "Bob"), from: "/settings")
        return (test, server, ann, bob)
    }

    static func settings(name: String) -> [(String, String)] {
        [("first_name", name), ("last_name", "Tester"), ("interval_hours", "24"), ("reminder", "30_minutes"), ("grace_minutes", "0")]
    }

    /// Ann shows her QR code; Bob opens its link and links as her responder.
    static func link(ann: WebBrowser, bob: WebBrowser) async throws {
        let qr = try await ann.get("/qr")
        guard let start = qr.text.range(of: "Or send them this link: <a href=\"") else {
            throw TestEnvironmentError(description: "no link on the QR page: \(qr.text)")
        }
        let link = String(qr.text[start.upperBound...].prefix { $0 != "\"" })
        let path = String(link.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" })
        let page = try await bob.get(path)
        guard page.status == 200, page.text.contains("<h1>Link with Ann Tester?</h1>") || page.text.contains("<h1>Link with Ann") else {
            throw TestEnvironmentError(description: "link page: \(page.status) \(page.text)")
        }
        // Bob says Ann will be looked out for by him: he becomes her responder.
        let linked = try await bob.submit(path, [("role", "dependent")], from: path)
        guard linked.header("Location") == "/people?said=linked" else {
            throw TestEnvironmentError(description: "linking: \(linked.status) \(linked.text)")
        }
    }

    @Test("the QR page's link opens a page that links the two; each sees the other in the right list", arguments: Engine.allCases)
    func linkByQRCode(engine: Engine) async throws {
        let (test, server, ann, bob) = try await Self.pair(engine)
        defer { Task { await server.stop() } }
        let qr = try await ann.get("/qr")
        #expect(qr.text.contains("<img src=\"/qr.svg?v="))
        let svg = try await ann.get("/qr.svg")
        #expect(svg.status == 200 && svg.header("Content-Type") == "image/svg+xml" && svg.text.hasPrefix("<svg"))
        try await Self.link(ann: ann, bob: bob)
        let annPeople = try await ann.get("/people")
        #expect(annPeople.text.contains("People who look out for you"))
        #expect(annPeople.text.contains("<strong>Bob Tester</strong> <span class=\"tag\">told first</span>"), "\(annPeople.text)")
        let bobID = try #require(annPeople.text.components(separatedBy: "action=\"/people/").dropFirst().first?.prefix(36))
        #expect(try await ann.submit("/people/\(bobID)/tier", [("tier", "2")], from: "/people").header("Location") == "/people?said=saved")
        #expect(try await ann.get("/people").text.contains("told second, if nobody answers"))
        #expect(try await ann.submit("/people/\(bobID)/tier", [("tier", "0")], from: "/people").status == 400)
        let bobPeople = try await bob.get("/people")
        #expect(bobPeople.text.contains("<strong>Ann Tester</strong> <span class=\"tag\">Not checked in yet</span>"))
        #expect(try await test.count("contacts") == 2)
        // The code worked once: a second scan finds nothing and links nothing.
        let third = WebBrowser(server)
        _ = try await third.signIn(test, phone: "+15550007203")
        let code = try #require(qr.text.components(separatedBy: "/l/").dropFirst().first?.prefix(36))
        let spent = try await third.get("/l/\(code)")
        #expect(spent.status == 404)
        #expect(try await test.count("contacts") == 2)
    }

    @Test("a responder sees the SOS on the people page and answers from it; the person sees who is on it", arguments: Engine.allCases)
    func respond(engine: Engine) async throws {
        let (test, server, ann, bob) = try await Self.pair(engine)
        defer { Task { await server.stop() } }
        try await Self.link(ann: ann, bob: bob)
        _ = try await ann.submit("/sos", [("confirm", "yes"), ("latitude", "51.5"), ("longitude", "-0.12")], from: "/sos")
        let page = try await bob.get("/people")
        #expect(page.text.contains("Needs you now"))
        #expect(page.text.contains("<strong>Ann Tester</strong>: SOS just now."))
        #expect(page.text.contains("href=\"tel:+15550007201\""))
        #expect(page.text.contains("openstreetmap.org/?mlat=51.5&amp;mlon=-0.12"))
        let alertID = try #require(try await test.backend.database.query("SELECT id FROM alerts").first?.uuid("id"))
        let onIt = try await bob.submit("/alerts/\(alertID.uuidString.lowercased())/on-it", from: "/people")
        #expect(onIt.header("Location") == "/people?said=on-it")
        #expect(try await test.count("alert_responses") == 1)
        #expect(try await bob.get("/people").text.contains("On it: Bob Tester"))
        let safe = try await bob.submit("/alerts/\(alertID.uuidString.lowercased())/safe", from: "/people")
        #expect(safe.header("Location") == "/people?said=safe")
        #expect(!(try await bob.get("/people").text.contains("Needs you now")))
    }

    @Test("a page refuses what the API refuses: a stranger cannot answer someone else's alert", arguments: Engine.allCases)
    func strangerRefused(engine: Engine) async throws {
        let (test, server, ann, _) = try await Self.pair(engine)
        defer { Task { await server.stop() } }
        _ = try await ann.submit("/sos", [("confirm", "yes")], from: "/sos")
        let alertID = try #require(try await test.backend.database.query("SELECT id FROM alerts").first?.uuid("id"))
        let eve = WebBrowser(server)
        _ = try await eve.signIn(test, phone: "+15550007209")
        let eveUser = try #require(try await test.backend.database.query("SELECT id FROM users WHERE phone = '+15550007209'").first?.uuid("id"))

        // The API's answer to Eve…
        var apiError: DomainError?
        do {
            _ = try await test.backend.functions.call("respond-to-alert", caller: .user(UserID(eveUser)), body: Data("{\"alertId\":\"\(alertID)\"}".utf8))
        } catch let error as DomainError {
            apiError = error
        }
        // …and the page's.
        let page = try await eve.submit("/alerts/\(alertID.uuidString.lowercased())/on-it", from: "/people")
        let expected = try #require(apiError)
        #expect(page.status == 403 || page.status == 404)
        #expect(page.text.contains(expected.message.replacingOccurrences(of: "'", with: "&#39;")) || page.text.contains(expected.message), "\(page.text)")
        #expect(try await eve.submit("/alerts/\(alertID.uuidString.lowercased())/safe", from: "/people").status == page.status)
        #expect(try await test.count("alert_responses") == 0)
        let status = try await test.backend.database.query("SELECT status FROM alerts").first?.string("status")
        #expect(status == "active")
        // Nor remove Ann's responders, nor see her on the people page.
        #expect(!(try await eve.get("/people").text.contains("Ann")))
    }

    @Test("a number that replied STOP is shown as not reachable by SMS, to the person and to their contacts", arguments: Engine.allCases)
    func stoppedNumbers(engine: Engine) async throws {
        let (test, server, ann, bob) = try await Self.pair(engine)
        defer { Task { await server.stop() } }
        try await Self.link(ann: ann, bob: bob)
        #expect(!(try await bob.get("/").text.contains("Texts to your number are stopped")))
        _ = try await test.backend.smsReplies.answer(from: "+15550007202", body: "STOP")
        #expect(try await bob.get("/").text.contains("Texts to your number are stopped"))
        let people = try await ann.get("/people").text
        #expect(people.contains("Can&#39;t be reached by SMS") || people.contains("Can't be reached by SMS"), "\(people)")
        _ = try await test.backend.smsReplies.answer(from: "+15550007202", body: "START")
        #expect(!(try await bob.get("/").text.contains("Texts to your number are stopped")))
    }

    @Test("an invitation by text from the page goes through the invitation rules", arguments: [Engine.sqlite])
    func invite(engine: Engine) async throws {
        let (test, server, ann, _) = try await Self.pair(engine)
        defer { Task { await server.stop() } }
        let sent = try await ann.submit("/people/invite", [("phone", "+15550007299"), ("role", "responder")], from: "/people")
        #expect(sent.header("Location") == "/people?said=invited")
        #expect(try await ann.get("/people").text.contains("Invitation to +15550007299"))
        #expect(try await test.count("contact_invitations") == 1)
        let bad = try await ann.submit("/people/invite", [("phone", "not a number"), ("role", "responder")], from: "/people")
        #expect(bad.status == 400)
        let noRole = try await ann.submit("/people/invite", [("phone", "+15550007298")], from: "/people")
        #expect(noRole.status == 400)
        #expect(try await test.count("contact_invitations") == 1)
    }
}
