import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Issue 31's attacks replayed as the attacker ran them: over HTTP against `lifesignal serve`
/// with Twilio (the stand-in) and SMTP (aiosmtpd) switched on, on both engines. Each is refused,
/// or bounded, and what reached Twilio and the mail server is counted.
@Suite("lifesignal serve: issue 31's attacks, replayed", .serialized)
struct ServeAttackTests {
    static let sid = "AC00000000000000000000000000000131", token = "attack-31-token"

    /// A serve with SMS and email, and the peers it talks to.
    struct Stage {
        let serve: ServeProcess
        let twilio: StandInProcess
        let smtp: StandInProcess

        /// Signs `phone` in with the code the SMS carried; the access token.
        func signIn(_ phone: String) async throws -> String {
            let before = try await texts(to: phone).count
            let (status, answer) = try await serve.post("/auth/v1/otp", ["phone": phone])
            #expect(status == 200, "\(answer)")
            let sms = try await twilio.records(atLeast: before + 1) { DeliveryStoryTests.fields($0)["To"] == phone }
            let code = String(try #require(DeliveryStoryTests.fields(sms[before])["Body"]).suffix(6))
            let (verified, session) = try await serve.post("/auth/v1/verify", ["type": "sms", "phone": phone, "token": code])
            #expect(verified == 200, "\(session)")
            return try #require(session["access_token"] as? String)
        }

        func call(_ function: String, _ token: String, _ body: [String: Any] = [:]) async throws -> (Int, [String: Any]) {
            try await serve.post("/functions/v1/\(function)", bearer: token, body)
        }

        func texts(to phone: String) async throws -> [[String: Any]] {
            try await twilio.records(atLeast: 0) { DeliveryStoryTests.fields($0)["To"] == phone }
        }

        func mails(to address: String) async throws -> [[String: Any]] {
            try await smtp.records(atLeast: 0) { ($0["rcpt_tos"] as? [String]) == [address] }
        }

        /// The count of texts to `phone` once no more arrive for a second (the sends after a
        /// request may still be on their way).
        func settledTexts(to phone: String) async throws -> Int {
            var count = try await texts(to: phone).count
            while true {
                try await Task.sleep(for: .seconds(1))
                let now = try await texts(to: phone).count
                if now == count { return count }
                count = now
            }
        }
    }

    @Test("free text, SOS pumping, an unowned mailbox, and invitation caps reset by deleting accounts", arguments: Engine.allCases)
    func attacks(engine: Engine) async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        let smtp = try await SMTPTestServer.start(mode: "plain")
        defer { for standIn in [twilio, smtp] { standIn.stop() } }
        let database: String? = engine == .postgres ? try ServeProcess.postgresURL(of: try await TestDatabases.backend(.postgres)) : nil
        let serve = try await ServeProcess(
            ["--metrics-port", "0"],
            environment: [
                "LIFESIGNAL_TWILIO_ACCOUNT_SID": Self.sid, "LIFESIGNAL_TWILIO_AUTH_TOKEN": Self.token,
                "LIFESIGNAL_TWILIO_FROM": "+15550001000", "LIFESIGNAL_TWILIO_API_URL": "http://127.0.0.1:\(twilio.port)",
                "LIFESIGNAL_SMTP_HOST": "127.0.0.1", "LIFESIGNAL_SMTP_PORT": "\(smtp.port)", "LIFESIGNAL_SMTP_SECURITY": "none",
                "LIFESIGNAL_SMTP_FROM": "alerts@lifesignal.test",
            ], database: database)
        defer { Task { await serve.stop() } }
        let stage = Stage(serve: serve, twilio: twilio, smtp: smtp)

        // The attacker makes a friend their responder (the friend shows their QR code) and the
        // friend takes everything by SMS and email.
        let attacker = try await stage.signIn("+15550003101")
        let friend = try await stage.signIn("+15550003102")
        #expect(try await stage.call("update-user-profile", attacker, ["firstName": "Win A Prize Call Now", "lastName": "Probe"]).0 == 200)
        let qr = try await stage.call("get-qr-code", friend)
        let code = try #require(qr.1["qrCodeId"] as? String)
        #expect(try await stage.call("add-contact-by-qr", attacker, ["qrCodeId": code, "isResponder": true, "isDependent": false]).0 == 200)
        #expect(try await stage.call("update-delivery-preferences", friend, ["sms": "all", "email": "all"]).0 == 200)
        let friendID = try #require(try await stage.call("get-user-profile", friend).1["userId"] as? String)
        let baseline = try await stage.settledTexts(to: "+15550003102")

        // 1. Free text to a contact: the app and push only.
        let spam = try await stage.call(
            "send-push-notification", attacker, ["userId": friendID, "title": "WIN A PRIZE", "body": "Claim it at https://evil.example/x"])
        #expect(spam.0 == 200, "\(spam.1)")
        #expect(try await stage.settledTexts(to: "+15550003102") == baseline)

        // 2. Ten SOS/cancel pairs in a row: three rounds and their all-clears by SMS.
        for _ in 0..<10 {
            #expect(try await stage.call("trigger-alert", attacker).0 == 200)
            #expect(try await stage.call("cancel-alert", attacker).0 == 200)
        }
        let pumped = try await stage.settledTexts(to: "+15550003102") - baseline
        #expect(pumped == 6, "\(pumped) texts from ten SOS/cancel pairs")
        let alertTexts = try await stage.texts(to: "+15550003102").compactMap { DeliveryStoryTests.fields($0)["Body"] }
        #expect(alertTexts.allSatisfy { !$0.contains("http://evil") && $0.count < 400 })

        // 3. A sign-up with someone else's address: only the code goes there, and it signs nobody in.
        let (signedUp, answer) = try await serve.post("/auth/v1/signup", ["email": "victim@example.com", "password": "correct horse"])
        #expect(signedUp == 200 && answer["access_token"] == nil, "\(answer)")
        let (refused, why) = try await serve.post("/auth/v1/token?grant_type=password", ["email": "victim@example.com", "password": "correct horse"])
        #expect(refused == 400 && why["code"] as? String == "email_not_confirmed", "\(why)")
        _ = try await smtp.records(atLeast: 1) { ($0["rcpt_tos"] as? [String]) == ["victim@example.com"] }
        try await Task.sleep(for: .seconds(1))
        #expect(try await stage.mails(to: "victim@example.com").count == 1)

        // 4. Inviters delete their accounts and sign up again to invite one number more often.
        let target = "+15550003199"
        for index in 0..<3 {
            let phone = "+1555000320\(index)"
            for _ in 0..<2 {
                let inviter = try await stage.signIn(phone)
                _ = try await stage.call("invite-contact", inviter, ["phone": target, "roles": ["responder"]])
                #expect(try await stage.call("delete-user-account", inviter).0 == 200)
            }
        }
        #expect(try await stage.settledTexts(to: target) == 3, "six invitations from three phones, each deleting and returning")
        let invitation = try #require(try await stage.texts(to: target).first.flatMap { DeliveryStoryTests.fields($0)["Body"] })
        #expect(!invitation.contains("Win") && !invitation.contains("5550003"), "\(invitation)")

        // /metrics is not on the public port.
        let base = try #require(serve.baseURL)
        let (_, metrics) = try await URLSession.shared.data(from: try #require(URL(string: base + "/metrics")))
        #expect((metrics as? HTTPURLResponse)?.statusCode == 404)
    }
}
