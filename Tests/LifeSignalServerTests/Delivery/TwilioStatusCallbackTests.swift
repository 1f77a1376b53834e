import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// `POST /hooks/twilio/status` over a real socket: only a callback signed with the account's
/// auth token for the exact URL moves a ledger row; anything else is refused 403 and changes
/// nothing (else anyone could mark an alert's SMS delivered, or failed).
@Suite("Twilio status callbacks")
struct TwilioStatusCallbackTests {
    static let token = "callback-test-token"
    static let url = URL(string: "https://lifesignal.example/hooks/twilio/status")!

    /// A server whose ledger holds one SMS Twilio accepted as `SM1`.
    static func start(configured: Bool = true) async throws -> (TestBackend, TestServer) {
        let test = try await TestDatabases.backend(.sqlite)
        let session = try await test.signIn("+15550006006")
        let now = test.clock.now
        try await test.backend.database.query(
            SQL(
                """
                INSERT INTO deliveries (id, notification_id, user_id, channel, address, kind, title, body, status, attempts, next_attempt_at,
                provider_message_id, created_at, updated_at, sent_at)
                VALUES ($1, $2, $3, 'sms', '+15550006007', 'alert_activated_received', 'T', 'B', 'sent', 1, $4, 'SM1', $4, $4, $4)
                """, bindings: [.uuid(UUID()), .uuid(UUID()), .uuid(session.user.id.rawValue), .timestamp(now)]))
        let server = try await TestServer.start(test.backend) {
            if configured { $0.twilioStatusCallback = TwilioWebhook(authToken: token, url: url) }
        }
        return (test, server)
    }

    static func post(_ server: TestServer, _ fields: [(String, String)], signature: String?) async throws -> TestServer.Reply {
        let body = fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        if let signature { headers["X-Twilio-Signature"] = signature }
        return try await server.request("POST", "/hooks/twilio/status", apiKey: nil, headers: headers, body: Data(body.utf8))
    }

    /// Form encoding: everything but unreserved characters percent-escaped.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))
            ?? text
    }

    static func status(_ test: TestBackend) async throws -> String? {
        try await test.backend.database.query("SELECT status FROM deliveries WHERE provider_message_id = 'SM1'").first.map { try $0.string("status") }
    }

    @Test("unsigned, forged, re-addressed or altered callbacks are 403 and leave the row as it was")
    func forgeries() async throws {
        let (test, server) = try await Self.start()
        defer { Task { await server.stop() } }
        let fields = [("MessageSid", "SM1"), ("MessageStatus", "failed"), ("ErrorCode", "30003")]
        let valid = TwilioSignature.expected(url: Self.url.absoluteString, parameters: fields, authToken: Self.token)
        var altered = fields
        altered[1].1 = "delivered"
        let attempts: [(String, [(String, String)], String?)] = [
            ("no signature", fields, nil),
            ("an empty signature", fields, ""),
            ("signed with another token", fields, TwilioSignature.expected(url: Self.url.absoluteString, parameters: fields, authToken: "guess")),
            (
                "signed for another URL", fields,
                TwilioSignature.expected(url: "https://evil.example/hooks/twilio/status", parameters: fields, authToken: Self.token)
            ),
            ("a field changed after signing", altered, valid),
            ("a field added after signing", fields + [("To", "+15550009999")], valid),
        ]
        for (name, body, signature) in attempts {
            let reply = try await Self.post(server, body, signature: signature)
            #expect(reply.status == 403, "\(name): \(reply.status) \(reply.text)")
            #expect(reply.json?["message"] as? String == "The X-Twilio-Signature header is missing or wrong", "\(name)")
            #expect(try await Self.status(test) == "sent", "\(name) changed the row")
        }

        // The genuine callback moves it.
        let genuine = try await Self.post(server, fields, signature: valid)
        #expect(genuine.status == 204, "\(genuine.text)")
        #expect(try await Self.status(test) == "failed")
        let error = try await test.backend.database.query("SELECT last_error FROM deliveries WHERE provider_message_id = 'SM1'").first.map {
            try $0.string("last_error")
        }
        #expect(error == "Twilio: failed (error 30003)")
    }

    @Test("a callback that outruns the ledger (its SID not recorded yet) still marks the row once it is")
    func callbackBeforeTheSID() async throws {
        let (test, server) = try await Self.start()
        defer { Task { await server.stop() } }
        let fields = [("MessageSid", "SM2"), ("MessageStatus", "delivered")]
        let reply = try await Self.post(
            server, fields, signature: TwilioSignature.expected(url: Self.url.absoluteString, parameters: fields, authToken: Self.token))
        #expect(reply.status == 204)
        try await test.backend.database.query("UPDATE deliveries SET provider_message_id = 'SM2' WHERE provider_message_id = 'SM1'")
        let deadline = ContinuousClock.now + .seconds(25)
        var status = try await test.backend.database.query("SELECT status FROM deliveries WHERE provider_message_id = 'SM2'").first.map {
            try $0.string("status")
        }
        while status != "delivered", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            status = try await test.backend.database.query("SELECT status FROM deliveries WHERE provider_message_id = 'SM2'").first.map {
                try $0.string("status")
            }
        }
        #expect(status == "delivered")
    }

    @Test("a signed callback without MessageSid is 400; a body past 16 KiB is refused; no account configured is 404")
    func refusals() async throws {
        let (test, server) = try await Self.start()
        defer { Task { await server.stop() } }
        let partial = [("MessageStatus", "delivered")]
        let reply = try await Self.post(
            server, partial, signature: TwilioSignature.expected(url: Self.url.absoluteString, parameters: partial, authToken: Self.token))
        #expect(reply.status == 400, "\(reply.text)")
        let huge = [("MessageSid", "SM1"), ("MessageStatus", "delivered"), ("Body", String(repeating: "x", count: 20_000))]
        let tooLarge = try await Self.post(
            server, huge, signature: TwilioSignature.expected(url: Self.url.absoluteString, parameters: huge, authToken: Self.token))
        #expect(tooLarge.status == 413, "\(tooLarge.status) \(tooLarge.text)")
        #expect(try await Self.status(test) == "sent")

        let (other, unconfigured) = try await Self.start(configured: false)
        defer { Task { await unconfigured.stop() } }
        let fields = [("MessageSid", "SM1"), ("MessageStatus", "delivered")]
        let notFound = try await Self.post(
            unconfigured, fields, signature: TwilioSignature.expected(url: Self.url.absoluteString, parameters: fields, authToken: Self.token))
        #expect(notFound.status == 404)
        #expect(try await Self.status(other) == "sent")
    }
}
