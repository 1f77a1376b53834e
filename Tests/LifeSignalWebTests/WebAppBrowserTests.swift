import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// The web app in a real browser: Debian's Chromium driven by Playwright
/// (`Tests/Compatibility/web_app_check.py`), phone-sized, two browser contexts as two people,
/// against the real server on 127.0.0.1. The script drives and checks what each person sees
/// (axe-core on every page and state); between its phases this side moves the clock, runs the
/// sweep, and checks what the pages wrote.
@Suite("web app in Chromium")
struct WebAppBrowserTests {
    static let annPhone = "+15550007301", bobPhone = "+15550007302"
    static let annCode = "135791", bobCode = "246802"

    @Test("two people sign up, link by QR, a missed check-in reaches the responder who answers, an SOS carries its location", arguments: Engine.allCases)
    func journey(engine: Engine) async throws {
        let otps = TestOTPs([try PhoneNumber(Self.annPhone): try OneTimeCode(Self.annCode), try PhoneNumber(Self.bobPhone): try OneTimeCode(Self.bobCode)])
        let test = try await TestDatabases.backend(engine, testOTPs: otps)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("web-app-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: state) }
        let common = [
            "--base", server.baseURL.absoluteString, "--state", state.path,
            "--ann-phone", Self.annPhone, "--ann-code", Self.annCode, "--bob-phone", Self.bobPhone, "--bob-code", Self.bobCode,
        ]

        // 1. Both sign up by code; Ann sets a 1-hour interval and checks in; Bob scans her QR
        //    code from a screenshot and links as her responder.
        let people = try await BrowserCheck.run("web_app_check.py", ["--phase", "people"] + common)
        #expect(people.status == 0, "\(people.output)")
        #expect(try await test.count("contacts") == 2)
        #expect(try await test.count("check_ins") == 1)
        #expect(
            try await test.backend.database.query("SELECT check_in_interval_seconds FROM users WHERE phone = \(Self.annPhone)").first?.int(
                "check_in_interval_seconds") == 3600)

        // 2. Ann's deadline passes: the sweep escalates it to Bob.
        test.clock.advance(by: 3600 + 3600)
        _ = try await test.backend.sweep.run(caller: .service)
        #expect(try await test.backend.database.query("SELECT kind FROM alerts WHERE status = 'active'").first?.string("kind") == "missed_check_in")

        // 3. Bob sees it and answers "I'm on it"; Ann checks in; Bob sees the all-clear.
        let alert = try await BrowserCheck.run("web_app_check.py", ["--phase", "alert"] + common)
        #expect(alert.status == 0, "\(alert.output)")
        #expect(try await test.count("alert_responses") == 1)
        #expect(try await test.backend.database.query("SELECT count(*) AS n FROM alerts WHERE status = 'active'").first?.int("n") == 0)

        // 4. Ann raises an SOS with the location the browser grants; Bob sees it with a map link.
        test.clock.advance(by: 600)
        let sos = try await BrowserCheck.run("web_app_check.py", ["--phase", "sos"] + common)
        #expect(sos.status == 0, "\(sos.output)")
        let row = try #require(try await test.backend.database.query("SELECT kind, latitude, longitude FROM alerts WHERE status = 'active'").first)
        #expect(try row.string("kind") == "sos")
        #expect(try abs(row.double("latitude") - 51.5014) < 0.0001 && abs(row.double("longitude") - (-0.1419)) < 0.0001)
    }
}
