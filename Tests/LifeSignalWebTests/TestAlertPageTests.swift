import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// The test alert over a real socket: the person sends it from the page, a responder confirms
/// with the link in their text, the person sees who confirmed and who nothing reached.
@Suite("web app: test alert")
struct TestAlertPageTests {
    @Test("send from the page; Bob confirms by the link; Cat, whom nothing reaches, is a warning; a few a day", arguments: Engine.allCases)
    func testAlert(engine: Engine) async throws {
        let sms = RecordingChannelSender()
        let secret = "test-alert-page-tests-secret-of-32-bytes-at-least"
        let links = ResponderLinks(jwtSecret: secret, baseURL: URL(fileURLWithPath: "/"))
        let clock = ManualClock()
        let test = try await TestDatabases.backend(engine, clock: clock) { configuration in
            configuration.jwtSecret = secret
            configuration.deliveryChannels = DeliveryChannels(sms: sms)
            configuration.testAlertLink = { message in URL(string: "http://127.0.0.1" + links.testURL(notification: message, now: clock.now).path) }
        }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let ann = WebBrowser(server)
        guard try await ann.signIn(test, phone: "+15550007201").status == 303 else { throw TestEnvironmentError(description: "sign-in") }
        let annRow = try #require(try await test.backend.database.query("SELECT id FROM auth_users WHERE phone = '15550007201'").first)
        let annID = Caller.user(UserID(try annRow.uuid("id")))
        let bob = Caller.user(try await test.signIn("+15550007202").user.id)
        let cat = Caller.user(try await test.signIn("+15550007203").user.id)
        for (responder, name) in [(bob, "Bob"), (cat, "Cat")] {
            _ = try await test.backend.profiles.update(caller: responder, ProfileUpdate(firstName: name))
            _ = try await test.backend.contacts.addContact(
                caller: annID, qrCodeID: try await test.backend.contacts.qrCode(caller: responder).id, roles: .responder)
        }
        _ = try await test.backend.deliveries.updatePreferences(caller: cat, sms: .off)

        #expect(try await ann.get("/people").text.contains("href=\"/test-alert\""))
        let sent = try await ann.submit("/test-alert", from: "/test-alert")
        #expect(sent.status == 303 && sent.header("Location") == "/test-alert")
        let text = try #require(await sms.messages(to: "+15550007202").first)
        #expect(text.kind == .testAlert && text.title == "This is a test")
        let link = try #require(text.link)
        #expect(link.path.hasPrefix("/t/"))
        #expect(await sms.messages(to: "+15550007203").isEmpty, "Cat turned texts off")

        var page = try await ann.get("/test-alert")
        #expect(page.text.contains("Nothing outside the app reached Cat"), "\(page.text)")
        #expect(page.text.contains("not confirmed yet"))

        let bobsPhone = WebBrowser(server)
        let opened = try await bobsPhone.get(link.path)
        #expect(opened.status == 200 && opened.text.contains("is testing LifeSignal: nothing is wrong"))
        #expect(try await bobsPhone.post(link.path, [], site: "cross-site").status == 403)
        let confirmed = try await bobsPhone.post(link.path, [])
        #expect(confirmed.status == 303)
        #expect(try await bobsPhone.get(link.path).text.contains("can see that you can be reached"))
        page = try await ann.get("/test-alert")
        #expect(page.text.contains("by the link"), "\(page.text)")
        #expect(try await bobsPhone.get("/t/AAAA" + link.path.dropFirst(7)).status == 404, "an altered token shows nothing")

        let report = try #require(try await test.backend.testAlerts.latest(caller: annID))
        #expect(report.responders.map(\.name).sorted() == ["Bob", "Cat"])
        #expect(report.responders.first { $0.name == "Bob" }?.confirmedBy == "link")
        #expect(report.responders.first { $0.name == "Cat" }?.isUnreachable == true)
        for _ in 1..<TestAlerts.perDay { _ = try await test.backend.testAlerts.send(caller: annID) }
        await #expect(throws: DomainError.rateLimited(retryAfter: 86400)) { _ = try await test.backend.testAlerts.send(caller: annID) }
    }
}
