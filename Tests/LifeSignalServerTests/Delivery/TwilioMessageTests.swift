import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@testable import LifeSignalServer

/// `POST /hooks/twilio/sms` over a real socket, on both engines: a signed text from a person's
/// verified phone checks them in; STOP and START set what may reach the number; a forged or
/// unsigned request acts on nothing.
@Suite("Texts to the server's number")
struct TwilioMessageTests {
    static let token = "messages-test-token"
    static let url = URL(string: "https://lifesignal.example/hooks/twilio/sms")!
    static let phone = "+15550007001"

    static func start(_ engine: Engine) async throws -> (TestBackend, TestServer) {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.twilioMessages = TwilioWebhook(authToken: token, url: url) }
        return (test, server)
    }

    /// Twilio's form for a text `body` from `from`, signed unless `signature` says otherwise.
    static func text(_ server: TestServer, from: String, _ body: String, signature: String?? = .none) async throws -> TestServer.Reply {
        let fields = [("MessageSid", "SM" + UUID().uuidString.prefix(8)), ("From", from), ("To", "+15550009999"), ("Body", body)]
        let form = fields.map { "\(TwilioStatusCallbackTests.escape($0.0))=\(TwilioStatusCallbackTests.escape($0.1))" }.joined(separator: "&")
        var headers = ["Content-Type": "application/x-www-form-urlencoded"]
        let signed = TwilioSignature.expected(url: url.absoluteString, parameters: fields, authToken: token)
        switch signature {
        case .none: headers["X-Twilio-Signature"] = signed
        case .some(let given?): headers["X-Twilio-Signature"] = given
        case .some(nil): break
        }
        return try await server.request("POST", "/hooks/twilio/sms", apiKey: nil, headers: headers, body: Data(form.utf8))
    }

    static func message(_ reply: TestServer.Reply) -> String? {
        guard let start = reply.text.range(of: "<Message>"), let end = reply.text.range(of: "</Message>") else { return nil }
        return String(reply.text[start.upperBound..<end.lowerBound])
    }

    @Test("OK from the person's verified phone checks them in and says when the next one is due", arguments: Engine.allCases)
    func checkIn(engine: Engine) async throws {
        let (test, server) = try await Self.start(engine)
        defer { Task { await server.stop() } }
        _ = try await test.signIn(Self.phone)
        let reply = try await Self.text(server, from: Self.phone, "OK, I'm fine")
        #expect(reply.status == 200 && reply.headers["content-type"]?.hasPrefix("text/xml") == true)
        #expect(Self.message(reply)?.hasPrefix("LifeSignal: checked in. Your next check-in is due in") == true, "\(reply.text)")
        #expect(try await test.count("check_ins") == 1)
        let again = try await Self.text(server, from: Self.phone, "ok")
        #expect(Self.message(again) == "LifeSignal: you checked in a moment ago. Nothing more to do.")
        #expect(try await test.count("check_ins") == 1)
        let unclear = try await Self.text(server, from: Self.phone, "who is this?")
        #expect(Self.message(unclear) == SMSReplies.unclear)
        #expect(Self.message(try await Self.text(server, from: Self.phone, "HELP")) == SMSReplies.help)
    }

    @Test("a number with no account checks no one in and gets no answer but HELP's", arguments: Engine.allCases)
    func strangers(engine: Engine) async throws {
        let (test, server) = try await Self.start(engine)
        defer { Task { await server.stop() } }
        _ = try await test.signIn(Self.phone)
        let reply = try await Self.text(server, from: "+15550007002", "OK")
        #expect(reply.status == 200 && Self.message(reply) == nil)
        #expect(try await test.count("check_ins") == 0)
        #expect(Self.message(try await Self.text(server, from: "+15550007002", "help")) == SMSReplies.help)
    }

    @Test("replies are paid texts: a number gets at most its messages a day, however often it writes")
    func replyCap() async throws {
        let (test, server) = try await Self.start(.sqlite)
        defer { Task { await server.stop() } }
        let limit = SendingCaps().perDestinationPerDay
        var answered = 0
        for _ in 0..<(limit + 3) where Self.message(try await Self.text(server, from: "+15550007003", "HELP")) != nil { answered += 1 }
        #expect(answered == limit)
        let counted = try await test.backend.database.query("SELECT sent FROM lifesignal_send_counts WHERE key = 'dest:sms:+15550007003'")
        #expect(try counted.first?.int("sent") == limit, "refused replies are not counted")
    }

    @Test("STOP stops every text to the number, START undoes it; neither is answered here", arguments: Engine.allCases)
    func stopAndStart(engine: Engine) async throws {
        let (test, server) = try await Self.start(engine)
        defer { Task { await server.stop() } }
        _ = try await test.signIn(Self.phone)
        let stopped = try await Self.text(server, from: Self.phone, "Stop")
        #expect(stopped.status == 200 && Self.message(stopped) == nil)
        #expect(try await test.count("lifesignal_sms_unreachable") == 1)
        // Stopped: a check-in by text is still acted on, but nothing is sent back.
        let quiet = try await Self.text(server, from: Self.phone, "ok")
        #expect(Self.message(quiet) == nil)
        #expect(try await test.count("check_ins") == 1)
        _ = try await Self.text(server, from: Self.phone, "START")
        #expect(try await test.count("lifesignal_sms_unreachable") == 0)
        #expect(Self.message(try await Self.text(server, from: Self.phone, "HELP")) == SMSReplies.help)
    }

    @Test("unsigned, forged or re-signed texts are 403 and act on nothing", arguments: Engine.allCases)
    func forgeries(engine: Engine) async throws {
        let (test, server) = try await Self.start(engine)
        defer { Task { await server.stop() } }
        _ = try await test.signIn(Self.phone)
        #expect(try await Self.text(server, from: Self.phone, "OK", signature: .some(nil)).status == 403)
        #expect(try await Self.text(server, from: Self.phone, "STOP", signature: .some("AAAA")).status == 403)
        let otherKey = TwilioSignature.expected(url: Self.url.absoluteString, parameters: [("Body", "OK"), ("From", Self.phone)], authToken: "another")
        #expect(try await Self.text(server, from: Self.phone, "OK", signature: .some(otherKey)).status == 403)
        #expect(try await test.count("check_ins") == 0)
        #expect(try await test.count("lifesignal_sms_unreachable") == 0)
    }

    @Test("a reminder by SMS says how to answer it when texts reach the server; other messages do not")
    func reminderWording() {
        let reminder = OutboundMessage(
            id: UUID(), channel: .sms, address: Self.phone, recipient: nil, kind: .checkInReminder, title: "Time to check in",
            body: "Your check-in is due in 30 minutes.")
        #expect(
            TwilioChannelSender.body(reminder, acceptsReplies: true)
                == "LifeSignal: Time to check in. Your check-in is due in 30 minutes. Reply OK to check in.")
        #expect(TwilioChannelSender.body(reminder, acceptsReplies: false) == "LifeSignal: Time to check in. Your check-in is due in 30 minutes.")
        var alert = reminder
        alert.kind = .nonResponsiveDependent
        #expect(!TwilioChannelSender.body(alert, acceptsReplies: true).contains("Reply OK"))
    }

    @Test("without a configured number the route is 404")
    func unconfigured() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        #expect(try await Self.text(server, from: Self.phone, "OK").status == 404)
    }
}
