import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// The check-in PIN on the person's own pages: set in settings, asked for by the home page's
/// check-in, and a duress PIN answered with the PIN's page.
@Suite("web app: check-in PIN")
struct WebPINTests {
    @Test(
        "settings sets the PINs; the home page then asks for the PIN, refuses a wrong one, and the duress PIN gives the PIN's page", arguments: Engine.allCases)
    func pinFromThePages(engine: Engine) async throws {
        let (test, server, browser) = try await WebHomeTests.start(engine, phone: "+15550007121")
        defer { Task { await server.stop() } }
        #expect(!(try await browser.get("/").text.contains("name=\"pin\"")), "no PIN, no PIN field")
        let short = try await browser.submit("/settings/pins", [("pin", "12")], from: "/settings")
        #expect(short.status == 400 && short.text.contains("A check-in PIN is 4 to 8 digits"))
        let saved = try await browser.submit("/settings/pins", [("pin", "4821"), ("duress_pin", "7350")], from: "/settings")
        #expect(saved.status == 303 && saved.header("Location") == "/settings?said=pin-saved")
        #expect(try await browser.get("/settings").text.contains("You also have a duress PIN."))

        let home = try await browser.get("/")
        #expect(home.text.contains("name=\"pin\"") && home.text.contains("type=\"password\""))
        let bare = try await browser.submit("/check-in")
        #expect(bare.status == 400 && bare.text.contains("This check-in needs your PIN"))
        let wrong = try await browser.submit("/check-in", [("pin", "0000")])
        #expect(wrong.status == 403)
        #expect(try await test.count("check_ins") == 0)
        let duress = try await browser.submit("/check-in", [("pin", "7350")])
        #expect(duress.status == 303 && duress.header("Location") == "/?said=checked-in")
        test.clock.advance(by: 600)
        let normal = try await browser.submit("/check-in", [("pin", "4821")])
        #expect(normal.status == duress.status && normal.header("Location") == duress.header("Location"))
        #expect(try await test.count("check_ins") == 2)

        // Calls and a fallback order from the same page, through the API's rules.
        let channels = try await browser.submit("/settings/alerts", [("voice", "urgent"), ("order", "push-sms-voice-email")], from: "/settings")
        #expect(channels.header("Location") == "/settings?said=saved")
        let chosen = try await test.backend.deliveries.preferences(caller: .user(try #require(try await Self.userID(test))))
        #expect(chosen.voice == .urgent && chosen.fallback == [.push, .sms, .voice, .email])
        #expect(try await browser.submit("/settings/alerts", [("voice", "loud"), ("order", "all")], from: "/settings").status == 400)

        let removed = try await browser.submit("/settings/pins/remove", [], from: "/settings")
        #expect(removed.header("Location") == "/settings?said=pin-removed")
        #expect(!(try await browser.get("/").text.contains("name=\"pin\"")))
    }

    static func userID(_ test: TestBackend) async throws -> UserID? {
        try await test.backend.database.query("SELECT id FROM auth_users WHERE phone = '15550007121'").first.map { UserID(try $0.uuid("id")) }
    }
}
