import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// The responder page in a real browser: Debian's Chromium driven by Playwright
/// (`Tests/Compatibility/responder_page_check.py`), JavaScript off, a phone-sized touch screen,
/// against the real server on 127.0.0.1. The script checks what a responder sees and taps; this
/// side checks what the taps wrote.
@Suite("responder pages in Chromium")
struct ResponderPageBrowserTests {
    @Test("a responder opens the link on a phone, taps I'm on it, then They're safe", arguments: Engine.allCases)
    func tapThrough(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        let url = f.links.url(alertID: f.alert.id, responder: f.bob.userID, now: f.test.clock.now)
        let run = try await BrowserCheck.run(
            "responder_page_check.py",
            [
                "--url", url.absoluteString, "--name", "Ann Tester", "--phone", ResponderPageFixture.annPhone,
            ])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("\"step\": \"on it\"") && run.output.contains("\"step\": \"marked safe\""), "\(run.output)")
        let bob = f.bob.userID.rawValue.uuidString.lowercased()
        #expect(try await f.count("SELECT count(*) AS n FROM alert_responses WHERE responder_id = '\(bob)'") == 1)
        let state = try await f.alertState()
        #expect(state.status == "resolved" && state.resolution == "marked_safe")
        let resolvedBy = try await f.test.backend.database.query(
            SQL.raw(
                "SELECT resolved_by FROM alerts WHERE id = '\(f.alert.id.uuidString.lowercased())'")
        ).first?.optionalUUID("resolved_by")
        #expect(resolvedBy == f.bob.userID.rawValue)
    }
}

extension ResponderPageBrowserTests {
    @Test("an invitee opens the invitation link on a phone: who invited and how to accept, accessibly", arguments: Engine.allCases)
    func invitation(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        let invitation = try await f.test.backend.contacts.invite(caller: f.ann, phone: "+15550005078", roles: .responder)
        let url = f.links.invitationURL(invitationID: invitation.id, now: f.test.clock.now)
        let run = try await BrowserCheck.run("responder_page_check.py", ["--invitation", "--url", url.absoluteString, "--name", "Ann"])
        #expect(run.status == 0 && run.output.contains("\"step\": \"invitation\""), "\(run.output)")
    }
}
