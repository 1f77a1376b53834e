import Crypto
import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// Issue 19's whole story against real provider processes on 127.0.0.1: a Twilio stand-in
/// (HTTP, signed status callbacks), aiosmtpd (SMTP) and an APNs stand-in (HTTP/2 over TLS), with
/// the server and Chromium. A missed deadline reaches the first tier on every channel they
/// chose; one taps "I'm on it" in the browser; the second tier is told someone is on it; the
/// person checks in; everyone told gets the all-clear. Twilio fails the second tier's first
/// messages, which are retried and arrive once.
@Suite("Delivery: the whole story", .serialized)
struct DeliveryStoryTests {
    static let sid = "AC" + String(repeating: "5", count: 32), token = "story-auth-token"
    static let team = "TEAM123456", keyID = "KEY1234567", topic = "org.lifesignal.app"

    @Test("missed deadline → tier 1 by SMS, email and APNs → I'm on it in Chromium → tier 2 told → check-in → all-clear", arguments: Engine.allCases)
    func story(engine: Engine) async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        let smtp = try await SMTPTestServer.start(mode: "plain")
        let key = P256.Signing.PrivateKey()
        let apns = try await StandInProcess.start("apns_standin.py", arguments: ["{dir}", key.publicKey.pemRepresentation, Self.team, Self.keyID, Self.topic])
        defer { for standIn in [twilio, smtp, apns] { standIn.stop() } }
        let port = try Self.freePort()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let apnsClient = try APNsClient(
            configuration: APNsConfiguration(
                teamID: Self.team, keyID: Self.keyID, privateKeyPEM: key.pemRepresentation, topic: Self.topic,
                baseURL: try #require(URL(string: "https://127.0.0.1:\(apns.port)")),
                additionalTrustRootsPEM: try String(contentsOfFile: apns.certificatePath, encoding: .utf8)))
        let twilioConfiguration = TwilioConfiguration(
            accountSID: Self.sid, authToken: Self.token, sender: .number("+15005550006"),
            statusCallback: base.appendingPathComponent("hooks/twilio/status"),
            baseURL: try #require(URL(string: "http://127.0.0.1:\(twilio.port)")))
        let clock = ManualClock()
        let from = try EmailAddress("alerts@lifesignal.test", displayName: "LifeSignal")
        let test = try await TestDatabases.backend(engine, clock: clock) { configuration in
            configuration.deliveryChannels = DeliveryChannels(
                sms: TwilioChannelSender(client: TwilioClient(configuration: twilioConfiguration)),
                email: EmailChannelSender(
                    client: SMTPClient(configuration: SMTPConfiguration(host: "127.0.0.1", port: smtp.port, security: .none)),
                    from: from),
                apns: APNsChannelSender(client: apnsClient, critical: false))
            let links = ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: base)
            configuration.responderLink = { alert, responder in links.url(alertID: alert, responder: responder, now: clock.now) }
        }
        let server = try await TestServer.start(test.backend) {
            $0.port = port
            $0.publicURL = base
            $0.twilioStatusCallback = TwilioWebhook(authToken: Self.token, url: twilioConfiguration.statusCallback ?? base)
        }
        defer {
            Task {
                await server.stop()
                try? await apnsClient.shutdown()
            }
        }
        let backend = test.backend

        // Ann checks in daily. Bob (tier 1) has the app on an iPhone, a phone and a confirmed
        // email; Cat (tier 2) has only a phone, on a number Twilio fails three times.
        let ann = try await Self.person(test, "+15550007001", "Ann")
        let bob = try await Self.person(test, "+15550007002", "Bob")
        let cat = try await Self.person(test, "+15559980003", "Cat")
        for responder in [bob, cat] {
            _ = try await backend.contacts.addContact(caller: ann, qrCodeID: try await backend.contacts.qrCode(caller: responder).id, roles: .responder)
        }
        _ = try await backend.functions.call("update-escalation-settings", caller: ann, body: Data(#"{"tierDelaySeconds": 1800}"#.utf8))
        _ = try await backend.functions.call("update-contact-tier", caller: ann, body: Data(#"{"contactId": "\#(try cat.requireUser())", "tier": 2}"#.utf8))
        let iphone = String(repeating: "ab", count: 32)
        try await backend.notifications.registerPushToken(caller: bob, token: iphone, platform: .apns)
        try await backend.database.query(
            SQL(
                "UPDATE auth_users SET email = 'bob@example.com', email_confirmed_at = $1, email_verified_at = $1 WHERE id = $2",
                bindings: [.timestamp(clock.now), .uuid(try bob.requireUser().rawValue)]))
        _ = try await backend.checkIns.checkIn(caller: ann)

        // The deadline passes; the sweep tells tier 1 on every channel.
        clock.advance(by: 24 * 3600 + 1)
        let report = try await backend.sweep.run(caller: .service)
        let ledger = try await backend.deliveries.list(caller: .service, limit: 1000)
        print("story (\(engine)): sweep \(report); ledger: \(ledger.map { "\($0.channel) \($0.address) \($0.kind) \($0.status) \($0.lastError ?? "")" })")
        let bobSMS = try await twilio.records(atLeast: 1) { Self.fields($0)["To"] == "+15550007002" }
        let bobText = try #require(Self.fields(bobSMS[0])["Body"])
        #expect(bobText.contains("Ann Tester") && bobText.contains("\(base.absoluteString)/r/"), "\(bobText)")
        let mail = try await smtp.records(atLeast: 1) { ($0["rcpt_tos"] as? [String]) == ["bob@example.com"] }
        #expect((mail[0]["html"] as? String)?.contains("/r/") == true && (mail[0]["subject"] as? String)?.contains("Ann") == true)
        let push = try await apns.records(atLeast: 1) { ($0["path"] as? String) == "/3/device/\(iphone)" }
        #expect(push[0]["status"] as? Int == 200)
        #expect(Self.fields(bobSMS[0])["StatusCallback"] == twilioConfiguration.statusCallback?.absoluteString)
        #expect(try await twilio.records(atLeast: 0) { Self.fields($0)["To"] == "+15559980003" }.isEmpty, "tier 2 waits")

        // Twilio's signed callback marks Bob's SMS delivered in the ledger.
        _ = try await twilio.records(atLeast: 1) { $0["callback"] != nil && ($0["answered"] as? Int) == 204 }
        let link = try #require(bobText.split(separator: " ").last.map(String.init))

        // Bob taps "I'm on it" in Chromium.
        let browser = try await StandInProcess.start("tap_on_it.py", arguments: [link])
        defer { browser.stop() }
        let tapped = try await browser.records(atLeast: 1, limit: .seconds(180)) { $0["after"] != nil }
        #expect((tapped[0]["before"] as? String)?.contains("Ann") == true)

        // Tier 2's turn: Cat is told Bob is on it. Twilio fails her first three messages;
        // the ledger retries until one is taken, and she gets it once.
        clock.advance(by: 1800)
        _ = try await backend.sweep.run(caller: .service)
        for _ in 0..<6 {
            clock.advance(by: 700)
            await backend.deliveries.sendDue()
        }
        let catTexts = try await twilio.records(atLeast: 4) { Self.fields($0)["To"] == "+15559980003" }
        #expect(catTexts.count == 4)
        #expect(Self.fields(catTexts[3])["Body"]?.contains("Bob Tester is on it") == true, "\(catTexts)")
        let catRows = try await backend.database.query(
            SQL(
                "SELECT status, attempts FROM deliveries WHERE address = '+15559980003' AND kind = 'alert_acknowledged'"))
        // Sent on the fourth attempt (and perhaps already reported delivered by Twilio's callback).
        let catRow = try catRows.map { "\(try $0.string("status"))/\(try $0.int("attempts"))" }
        #expect(catRow == ["sent/4"] || catRow == ["delivered/4"], "\(catRow)")

        // Ann checks in: the all-clear reaches Bob on all three channels and Cat by SMS.
        _ = try await backend.checkIns.checkIn(caller: ann)
        _ = try await backend.sweep.run(caller: .service)
        for (to, count) in [("+15550007002", 2), ("+15559980003", 5)] {
            let texts = try await twilio.records(atLeast: count) { Self.fields($0)["To"] == to }
            #expect(texts.last.map { Self.fields($0)["Body"] ?? "" }?.contains("checked in") == true, "\(texts)")
        }
        #expect(try await smtp.records(atLeast: 2) { ($0["rcpt_tos"] as? [String]) == ["bob@example.com"] }.count == 2)
        #expect(try await apns.records(atLeast: 2) { ($0["path"] as? String) == "/3/device/\(iphone)" }.count >= 2)
        // Nothing left waiting, nothing failed.
        #expect(try await backend.database.query("SELECT id FROM deliveries WHERE status IN ('queued', 'sending', 'failed')").isEmpty)
    }

    struct NoFreePort: Error {}

    static func fields(_ record: [String: Any]) -> [String: String] {
        (record["fields"] as? [String: Any])?.compactMapValues { $0 as? String } ?? [:]
    }

    static func person(_ test: TestBackend, _ phone: String, _ name: String) async throws -> Caller {
        let caller = Caller.user(try await test.signIn(phone).user.id)
        _ = try await test.backend.profiles.update(caller: caller, ProfileUpdate(firstName: name, lastName: "Tester"))
        return caller
    }

    /// A port nothing listens on now, for a server whose URL must be known before it starts
    /// (Twilio signs the callback URL).
    static func freePort() throws -> Int {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(probe, $0, length) == 0 && getsockname(probe, $0, &length) == 0 }
        }
        guard bound else { throw NoFreePort() }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
