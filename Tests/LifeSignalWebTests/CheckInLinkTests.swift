import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// One-tap check-in from a reminder (`/c/<token>`) over a real socket: the reminder carries the
/// link, the page checks in once without signing in, and a link for a deadline that has moved
/// on, or one the server did not make, changes nothing.
@Suite("check-in links")
struct CheckInLinkTests {
    static func backend(_ engine: Engine, push: RecordingPushSender) async throws -> TestBackend {
        try await TestDatabases.backend(engine) { configuration in
            let links = ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: URL(fileURLWithPath: "/"))
            configuration.pushSender = push
            configuration.checkInLink = { person, deadline in URL(string: "http://127.0.0.1/c/" + links.checkInToken(user: person, deadline: deadline)) }
        }
    }

    @Test("the reminder carries the link; it checks in once, with no sign-in; after that it says so", arguments: Engine.allCases)
    func reminderToCheckIn(engine: Engine) async throws {
        let push = RecordingPushSender()
        let test = try await Self.backend(engine, push: push)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let ann = Caller.user(try await test.signIn("+15550007601").user.id)
        _ = try await test.backend.profiles.update(caller: ann, ProfileUpdate(firstName: "Ann"))
        try await test.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600 - 30 * 60)
        #expect(try await test.backend.sweep.run(caller: .service).reminders == 1)
        _ = await test.backend.deliveries.sendDue()
        let reminder = try #require(await push.messages(to: "ann-phone").first)
        let link = try #require(reminder.data["link"].flatMap(URL.init(string:)))
        #expect(link.path.hasPrefix("/c/") && link.path.count == 3 + 39, "\(link)")

        let browser = WebBrowser(server)
        let page = try await browser.get(link.path)
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>Hello, Ann</h1>") && page.text.contains("I&#39;m OK — check in") || page.text.contains("I'm OK — check in"))
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        // From another site: refused, nothing written.
        #expect(try await browser.post(link.path, [], site: "cross-site").status == 403)
        #expect(try await test.count("check_ins") == 1)

        let done = try await browser.post(link.path, [])
        #expect(done.status == 303 && done.header("Location") == link.path)
        #expect(try await test.count("check_ins") == 2)
        let after = try await browser.get(link.path)
        #expect(after.text.contains("You&#39;re checked in") || after.text.contains("You're checked in"))
        #expect(!after.text.contains("<form"), "the link has done its work")
        // Pressed again (a second tap, a reload): still one check-in.
        test.clock.advance(by: 600)
        _ = try await browser.post(link.path, [])
        #expect(try await test.count("check_ins") == 2)
    }

    @Test("a late check-in by the link ends the escalation; a forged or altered token shows nothing", arguments: Engine.allCases)
    func lateAndForged(engine: Engine) async throws {
        let push = RecordingPushSender()
        let test = try await Self.backend(engine, push: push)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let ann = Caller.user(try await test.signIn("+15550007602").user.id)
        let bob = Caller.user(try await test.signIn("+15550007603").user.id)
        _ = try await test.backend.contacts.addContact(caller: ann, qrCodeID: try await test.backend.contacts.qrCode(caller: bob).id, roles: .responder)
        let result = try await test.backend.checkIns.checkIn(caller: ann)
        let links = test.backend.responderLinks(baseURL: server.baseURL)
        let path = links.checkInURL(user: ann.userID, deadline: result.deadline).path
        test.clock.advance(by: 24 * 3600 + 3600)
        _ = try await test.backend.sweep.run(caller: .service)
        #expect(try await test.backend.database.query("SELECT count(*) AS n FROM alerts WHERE status = 'active'").first?.int("n") == 1)
        let browser = WebBrowser(server)
        #expect(try await browser.post(path, []).status == 303)
        #expect(try await test.backend.database.query("SELECT count(*) AS n FROM alerts WHERE status = 'active'").first?.int("n") == 0)

        let token = String(path.dropFirst(3))
        var altered = Array(token)
        altered[5] = altered[5] == "A" ? "B" : "A"
        let other = links.checkInToken(user: bob.userID, deadline: result.deadline)
        for bad in [String(altered), "nonsense", String(token.dropLast())] {
            let page = try await browser.post("/c/" + bad, [])
            #expect(page.status == 404, "\(bad)")
        }
        // Bob's own token for a deadline that is not his: it names no deadline of his, so it
        // checks nobody in.
        let before = try await test.count("check_ins")
        _ = try await browser.post("/c/" + other, [])
        #expect(try await test.count("check_ins") == before)
    }
}
