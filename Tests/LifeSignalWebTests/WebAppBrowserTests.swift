import Crypto
import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalServer
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
        // Bob's phone gets Web Push: his subscription points at the stand-in push service,
        // which checks VAPID and decrypts what arrives (a headless browser cannot reach a real one).
        let endpoints = WebPushEndpoints(hosts: [], allowsLoopbackHTTP: true)
        let pushClient = try WebPushClient(
            configuration: WebPushConfiguration(vapidKey: .generate(), contact: "mailto:ops@lifesignal.example", allowsInsecureLoopbackEndpoints: true))
        let test = try await TestDatabases.backend(engine, testOTPs: otps) {
            $0.webPushEndpoints = endpoints
            $0.deliveryChannels = DeliveryChannels(webPush: WebPushChannelSender(client: pushClient, endpoints: endpoints))
        }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let bobsPhone = P256.KeyAgreement.PrivateKey()
        let bobsSecret = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
        let pushService = try await StandInProcess.start(
            "webpush_standin.py", arguments: [Base64URL.encode(bobsPhone.rawRepresentation), Base64URL.encode(bobsSecret)])
        defer { pushService.stop() }
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

        // 2. Ann's deadline passes: the sweep escalates it to Bob, whose phone gets a Web Push.
        let bob = try #require(try await test.backend.database.query("SELECT id FROM users WHERE phone = \(Self.bobPhone)").first?.uuid("id"))
        let subscription = [
            #"{"endpoint":"http://127.0.0.1:\#(pushService.port)/push/bob","keys":{"p256dh":"\#(Base64URL.encode(bobsPhone.publicKey.x963Representation))","#,
            #""auth":"\#(Base64URL.encode(bobsSecret))"}}"#,
        ].joined()
        try await test.backend.notifications.registerPushToken(caller: .user(UserID(bob)), token: subscription, platform: .web)
        test.clock.advance(by: 3600 + 3600)
        _ = try await test.backend.sweep.run(caller: .service)
        #expect(try await test.backend.database.query("SELECT kind FROM alerts WHERE status = 'active'").first?.string("kind") == "missed_check_in")
        _ = await test.backend.deliveries.sendDue()
        let push = try await pushService.nextMessage()
        #expect(push["vapid_verified"] as? Bool == true && push["urgency"] as? String == "high", "\(push)")
        let shown = try #require((push["plaintext"] as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) })
        #expect(shown.contains("Ann"), "\(shown)")

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

        // 5. Ann checks in while her phone is offline: the page says she is not checked in yet,
        //    and once it is back online the kept check-in arrives, counted once.
        test.clock.advance(by: 600)
        let before = try await test.count("check_ins")
        let offline = try await BrowserCheck.run("web_app_check.py", ["--phase", "offline"] + common)
        #expect(offline.status == 0, "\(offline.output)")
        #expect(try await test.count("check_ins") == before + 1)
    }
}
