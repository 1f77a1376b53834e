import Foundation
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `lifesignal serve` with a Twilio account (`LIFESIGNAL_TWILIO_*`): sign-in codes leave as
/// SMS through the Messages API — here a stand-in on 127.0.0.1 speaking Twilio's wire — and a
/// person signs in with the code the SMS carried.
@Suite("lifesignal serve: sign-in codes by SMS")
struct ServeSMSTests {
    static let sid = "AC00000000000000000000000000000001", token = "serve-test-token"

    @Test("the code goes out as an SMS through the Messages API and signs the person in; refusals are answered")
    func signInBySMS() async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { twilio.stop() }
        let serve = try await ServeProcess(environment: [
            "LIFESIGNAL_TWILIO_ACCOUNT_SID": Self.sid, "LIFESIGNAL_TWILIO_AUTH_TOKEN": Self.token,
            "LIFESIGNAL_TWILIO_FROM": "+15550001000", "LIFESIGNAL_TWILIO_API_URL": "http://127.0.0.1:\(twilio.port)",
            "LIFESIGNAL_PUBLIC_URL": "http://127.0.0.1:9",
        ])
        defer { Task { await serve.stop() } }
        #expect(serve.value("sms:") == "Twilio, account \(Self.sid), delivery reports on, calls on")
        #expect(!serve.banner.contains(Self.token), "the auth token is never printed")

        #expect(try await serve.post("/auth/v1/otp", ["phone": "+15550002000"]).0 == 200)
        let sent = try await twilio.nextMessage()
        #expect(sent["authorized"] as? Bool == true)
        let fields = try #require(sent["fields"] as? [String: String])
        #expect(fields["To"] == "+15550002000" && fields["From"] == "+15550001000")
        // Alerts ask for delivery reports; a code, which is not in the ledger, does not.
        #expect(fields["StatusCallback"] == nil)
        let body = try #require(fields["Body"])
        #expect(body.hasPrefix("Your LifeSignal code is "))
        let code = String(body.suffix(6))
        let (status, session) = try await serve.post("/auth/v1/verify", ["type": "sms", "phone": "+15550002000", "token": code])
        #expect(status == 200)
        #expect(session["access_token"] is String)

        // A number Twilio will never reach is the caller's to fix; Twilio failing is the server's.
        let (unreachable, refusal) = try await serve.post("/auth/v1/otp", ["phone": "+15559990001"])
        #expect((400..<500).contains(unreachable), "STOP from the recipient: \(refusal)")
        #expect(try await serve.post("/auth/v1/otp", ["phone": "+15559990003"]).0 == 500)
    }

    @Test("a landline asks for its code by call: the stand-in's phone hears it read out, twice, and it signs the person in")
    func signInByCall() async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { twilio.stop() }
        let serve = try await ServeProcess(environment: [
            "LIFESIGNAL_TWILIO_ACCOUNT_SID": Self.sid, "LIFESIGNAL_TWILIO_AUTH_TOKEN": Self.token,
            "LIFESIGNAL_TWILIO_FROM": "+15550001000", "LIFESIGNAL_TWILIO_API_URL": "http://127.0.0.1:\(twilio.port)",
        ])
        defer { Task { await serve.stop() } }
        #expect(try await serve.post("/auth/v1/otp", ["phone": "+15550002001", "channel": "whatsapp"]).0 == 400)
        #expect(try await serve.post("/auth/v1/otp", ["phone": "+15550002001", "channel": "call"]).0 == 200)
        let placed = try await twilio.records(atLeast: 1) { ($0["path"] as? String)?.hasSuffix("/Calls.json") == true }
        let fields = try #require(placed[0]["fields"] as? [String: Any])
        #expect(fields["To"] as? String == "+15550002001" && fields["From"] as? String == "+15550001000")
        let heard = try await twilio.records(atLeast: 2) { ($0["to"] as? String) == "+15550002001" && $0["heard"] != nil }
            .compactMap { $0["heard"] as? String }
        #expect(heard.count == 2 && heard[1].hasPrefix("Again: "), "\(heard)")
        let code = String(heard[0].filter(\.isNumber))
        #expect(code.count == 6, "\(heard)")
        let (status, session) = try await serve.post("/auth/v1/verify", ["type": "sms", "phone": "+15550002001", "token": code])
        #expect(status == 200 && session["access_token"] is String)
        let texts = twilio.records.filter { ($0["path"] as? String)?.hasSuffix("/Messages.json") == true }
        #expect(texts.isEmpty, "no text to a landline")
    }

    @Test("a Twilio account named in part stops serve before it listens")
    func partialSettings() async throws {
        let serve = try await ServeProcess(environment: ["LIFESIGNAL_TWILIO_ACCOUNT_SID": Self.sid])
        let ended = await serve.process.finish(within: .seconds(60))
        await serve.stop()
        #expect(!serve.banner.contains("LifeSignal is listening"))
        #expect(!ended.timedOut && ended.status != 0)
    }
}
