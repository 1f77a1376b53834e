import Foundation
import LifeSignalTestSupport
import Testing

@testable import LifeSignalDelivery

/// ``TwilioClient`` against a stand-in speaking Twilio's Messages API over 127.0.0.1
/// (`Tests/Compatibility/twilio_standin.py`), and ``TwilioSignature`` against Python's own
/// HMAC-SHA1 as an independent oracle.
@Suite("SMS: Twilio client against a stand-in")
struct TwilioClientTests {
    static let sid = "AC0123456789abcdef0123456789abcdef", token = "test-auth-token"

    static func client(_ standIn: StandInProcess, token: String = token, sender: TwilioConfiguration.Sender = .number("+15550001000")) throws -> TwilioClient {
        let base = try #require(URL(string: "http://127.0.0.1:\(standIn.port)"))
        return TwilioClient(
            configuration: TwilioConfiguration(
                accountSID: sid, authToken: token, sender: sender,
                statusCallback: URL(string: "https://lifesignal.example/deliveries/twilio?x=1"), baseURL: base, timeout: .seconds(60)))
    }

    @Test("a message is a form POST with Basic auth; the sid comes back; + and spaces survive the form encoding")
    func sends() async throws {
        let standIn = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { standIn.stop() }
        let receipt = try await Self.client(standIn).send(to: "+15550002000", body: "Ann missed her 09:00 check-in & needs you: +1 555 000 2000")
        #expect(receipt.sid.hasPrefix("SM") && receipt.status == "queued")
        let request = try await standIn.nextMessage()
        #expect(request["authorized"] as? Bool == true)
        #expect(request["content_type"] as? String == "application/x-www-form-urlencoded")
        let fields = request["fields"] as? [String: String]
        #expect(fields?["To"] == "+15550002000")
        #expect(fields?["From"] == "+15550001000")
        #expect(fields?["Body"] == "Ann missed her 09:00 check-in & needs you: +1 555 000 2000")
        #expect(fields?["StatusCallback"] == "https://lifesignal.example/deliveries/twilio?x=1")

        _ = try await Self.client(standIn, sender: .messagingService(sid: "MG123")).send(to: "+15550002000", body: "hi")
        #expect((try await standIn.nextMessage()["fields"] as? [String: String])?["MessagingServiceSid"] == "MG123")
    }

    @Test("refusals say whether to try again: invalid number and STOP are final, 429 and 5xx transient, bad credentials final")
    func refusals() async throws {
        let standIn = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { standIn.stop() }
        let client = try Self.client(standIn)
        let cases: [(String, Int, Bool)] = [
            ("+15559990000", 21211, false), ("+15559990001", 21610, false),
            ("+15559990002", 20429, true), ("+15559990003", 20500, true),
        ]
        for (number, code, transient) in cases {
            await #expect {
                _ = try await client.send(to: number, body: "hello")
            } throws: { error in
                guard let error = error as? SMSError, case .refused(_, let got, _) = error else { return false }
                return got == code && error.isTransient == transient
            }
        }
        await #expect {
            _ = try await Self.client(standIn, token: "wrong").send(to: "+15550002000", body: "hello")
        } throws: { error in
            guard let error = error as? SMSError, case .refused(401, 20003, _) = error else { return false }
            return !error.isTransient
        }
        // Refused before any request: not a number, an empty body.
        let before = standIn.messageCount
        await #expect(throws: SMSError.self) { _ = try await client.send(to: "5550002000", body: "hello") }
        await #expect(throws: SMSError.self) { _ = try await client.send(to: "+1555&To=+1666", body: "hello") }
        await #expect(throws: SMSError.self) { _ = try await client.send(to: "+15550002000", body: "") }
        #expect(standIn.messageCount == before)
    }

    @Test("status callback signatures match an independent HMAC-SHA1 and refuse any change")
    func signatures() async throws {
        guard let python = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_PYTHON"] else {
            Issue.record("LIFESIGNAL_TEST_PYTHON is not set: run the tests with scripts/test")
            return
        }
        let url = "https://lifesignal.example/deliveries/twilio?x=1"
        let parameters = [("MessageStatus", "delivered"), ("MessageSid", "SM123"), ("ErrorCode", ""), ("To", "+15550002000")]
        let result = try await ChildProcess.run(
            python,
            arguments: [
                "-c",
                """
                import base64, hashlib, hmac, sys
                url, token = sys.argv[1], sys.argv[2]
                pairs = sorted(zip(sys.argv[3::2], sys.argv[4::2]))
                text = url + "".join(k + v for k, v in pairs)
                print(base64.b64encode(hmac.new(token.encode(), text.encode(), hashlib.sha1).digest()).decode())
                """, url, Self.token,
            ] + parameters.flatMap { [$0.0, $0.1] }, within: .seconds(120))
        let oracle = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!oracle.isEmpty)
        #expect(TwilioSignature.expected(url: url, parameters: parameters, authToken: Self.token) == oracle)
        #expect(TwilioSignature.isValid(oracle, url: url, parameters: parameters, authToken: Self.token))
        var changed = parameters
        changed[0].1 = "failed"
        #expect(!TwilioSignature.isValid(oracle, url: url, parameters: changed, authToken: Self.token))
        #expect(!TwilioSignature.isValid(oracle, url: url + "&y=2", parameters: parameters, authToken: Self.token))
        #expect(!TwilioSignature.isValid(oracle, url: url, parameters: parameters, authToken: "other"))
        #expect(!TwilioSignature.isValid(String(oracle.dropLast()), url: url, parameters: parameters, authToken: Self.token))
    }
}
