import Crypto
import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// Web Push as a delivery channel: a browser's subscription registered through the rules, an
/// SOS sent to it through the delivery ledger, and the stand-in push service
/// (`Tests/Compatibility/webpush_standin.py`) checking VAPID with `py_vapid` and decrypting
/// with `http_ece`. A subscription the push service says is gone is forgotten.
@Suite("Web Push through the delivery ledger")
struct WebPushDeliveryTests {
    /// The browser's half of a subscription.
    struct Browser {
        let key = P256.KeyAgreement.PrivateKey()
        let auth = Data((0..<16).map { _ in UInt8.random(in: 0...255) })

        func subscription(_ endpoint: String) -> String {
            #"{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(Base64URL.encode(key.publicKey.x963Representation))","auth":"\#(Base64URL.encode(auth))"}}"#
        }
    }

    static func backend(_ engine: Engine) async throws -> TestBackend {
        let endpoints = WebPushEndpoints(hosts: [], allowsLoopbackHTTP: true)
        let client = try WebPushClient(
            configuration: WebPushConfiguration(
                vapidKey: .generate(), contact: "mailto:ops@lifesignal.example", allowsInsecureLoopbackEndpoints: true))
        return try await TestDatabases.backend(engine) {
            $0.webPushEndpoints = endpoints
            $0.deliveryChannels = DeliveryChannels(webPush: WebPushChannelSender(client: client, endpoints: endpoints))
        }
    }

    @Test("an SOS reaches the responder's browser: VAPID verified, decrypted, urgent; a gone subscription is forgotten", arguments: Engine.allCases)
    func sosReachesBrowser(engine: Engine) async throws {
        let test = try await Self.backend(engine)
        let browser = Browser()
        let standIn = try await StandInProcess.start(
            "webpush_standin.py", arguments: [Base64URL.encode(browser.key.rawRepresentation), Base64URL.encode(browser.auth)])
        defer { standIn.stop() }
        let ann = Caller.user(try await test.signIn("+15550007401").user.id)
        let bob = Caller.user(try await test.signIn("+15550007402").user.id)
        _ = try await test.backend.profiles.update(caller: ann, ProfileUpdate(firstName: "Ann", lastName: "Tester"))
        _ = try await test.backend.contacts.addContact(caller: ann, qrCodeID: try await test.backend.contacts.qrCode(caller: bob).id, roles: .responder)
        let phone = browser.subscription("http://127.0.0.1:\(standIn.port)/push/bob-phone")
        try await test.backend.notifications.registerPushToken(caller: bob, token: phone, platform: .web)
        try await test.backend.notifications.registerPushToken(
            caller: bob, token: browser.subscription("http://127.0.0.1:\(standIn.port)/push/gone"), platform: .web)
        #expect(try await test.count("push_tokens") == 2)

        _ = try await test.backend.alerts.trigger(caller: ann)
        _ = await test.backend.deliveries.sendDue()
        var received: [[String: Any]] = []
        for _ in 0..<2 { received.append(try await standIn.nextMessage()) }
        let delivered = try #require(received.first { ($0["path"] as? String) == "/push/bob-phone" })
        #expect(delivered["vapid_verified"] as? Bool == true, "\(delivered)")
        #expect(delivered["status"] as? Int == 201)
        #expect(delivered["urgency"] as? String == "high" && delivered["ttl"] as? String == "86400", "\(delivered)")
        #expect((delivered["topic"] as? String)?.count == 32)
        let plaintext = try #require((delivered["plaintext"] as? String).flatMap { Data(base64Encoded: $0) })
        let payload = try #require(try JSONSerialization.jsonObject(with: plaintext) as? [String: Any])
        #expect((payload["title"] as? String)?.contains("Ann") == true || (payload["body"] as? String)?.contains("Ann") == true, "\(payload)")
        #expect(payload["link"] as? String != nil)
        // The push service said the other subscription is gone (410): it is no longer stored.
        let tokens = try await test.backend.database.query("SELECT token FROM push_tokens").map { try $0.string("token") }
        #expect(tokens.count == 1 && tokens.first?.contains("/push/bob-phone") == true, "\(tokens)")
    }

    @Test("a subscription to anywhere but a push service is refused, as is one on a server without Web Push")
    func endpointsRefused() async throws {
        let test = try await Self.backend(.sqlite)
        let ann = Caller.user(try await test.signIn("+15550007403").user.id)
        let browser = Browser()
        let refused = [
            browser.subscription("https://169.254.169.254/latest/meta-data"), browser.subscription("http://10.0.0.5/push/x"),
            browser.subscription("ftp://127.0.0.1/x"), #"{"endpoint":"https://fcm.googleapis.com/x"}"#, "{not json",
            #"{"endpoint":"http://127.0.0.1:9/x","keys":{"p256dh":"AAAA","auth":"AAAA"}}"#,
        ]
        for token in refused {
            await #expect(throws: DomainError.self, "\(token)") {
                try await test.backend.notifications.registerPushToken(caller: ann, token: token, platform: .web)
            }
        }
        #expect(try await test.count("push_tokens") == 0)

        let browsersOnly = WebPushEndpoints()
        #expect(throws: Never.self) { try browsersOnly.validate(browser.subscription("https://fcm.googleapis.com/fcm/send/abc")) }
        #expect(throws: Never.self) { try browsersOnly.validate(browser.subscription("https://wns2-by3p.notify.windows.com/w/?token=x")) }
        #expect(throws: DomainError.self) { try browsersOnly.validate(browser.subscription("https://fcm.googleapis.com.evil.example/x")) }
        #expect(throws: DomainError.self) { try browsersOnly.validate(browser.subscription("http://127.0.0.1:9/x")) }

        let plain = try await TestDatabases.backend(.sqlite)
        let bea = Caller.user(try await plain.signIn("+15550007404").user.id)
        await #expect(throws: DomainError.failedPrecondition("This server does not send Web Push")) {
            try await plain.backend.notifications.registerPushToken(caller: bea, token: browser.subscription("https://fcm.googleapis.com/x"), platform: .web)
        }
    }
}
