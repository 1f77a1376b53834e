import Foundation
import LifeSignalTestSupport
import Testing

@testable import LifeSignalDelivery

/// ``SiteverifyCaptcha`` against a stand-in speaking hCaptcha's and Turnstile's shared
/// `siteverify` protocol over 127.0.0.1 (`Tests/Compatibility/captcha_standin.py`).
@Suite("Captcha: siteverify (hCaptcha, Turnstile) against a stand-in")
struct SiteverifyCaptchaTests {
    /// With characters a form must encode, so a wrong encoding shows as a wrong secret.
    static let secret = "0x4AAA-test secret+&=é"

    static func captcha(
        _ standIn: StandInProcess, provider: SiteverifyCaptcha.Provider = .hcaptcha, secret: String = secret, timeout: Duration = .seconds(10)
    ) throws -> SiteverifyCaptcha {
        let url = try #require(URL(string: "http://127.0.0.1:\(standIn.port)/siteverify"))
        return SiteverifyCaptcha(provider: provider, secret: secret, url: url, timeout: timeout)
    }

    static func fields(_ record: [String: Any]) -> [String: String] {
        (record["fields"] as? [String: Any])?.compactMapValues { $0 as? String } ?? [:]
    }

    @Test("a solved token is true once, posted as a form with remoteip; the same token again is false", arguments: SiteverifyCaptcha.Provider.allCases)
    func singleUse(provider: SiteverifyCaptcha.Provider) async throws {
        let standIn = try await StandInProcess.start("captcha_standin.py", arguments: [Self.secret])
        defer { standIn.stop() }
        let captcha = try Self.captcha(standIn, provider: provider)
        #expect(try await captcha.verify(token: "pass-1", remoteIP: "203.0.113.7"))
        let first = try await standIn.nextMessage()
        #expect(first["secret"] as? String == "right")
        #expect(first["content_type"] as? String == "application/x-www-form-urlencoded")
        #expect(first["path"] as? String == "/siteverify")
        #expect(Self.fields(first) == ["response": "pass-1", "remoteip": "203.0.113.7"])

        #expect(try await captcha.verify(token: "pass-1", remoteIP: "203.0.113.7") == false)
        #expect((try await standIn.nextMessage()["error_codes"] as? [String]) == ["timeout-or-duplicate"])
        let again = try await captcha.siteverify(token: "pass-1", remoteIP: nil)
        #expect(again == SiteverifyCaptcha.Outcome(success: false, errorCodes: ["timeout-or-duplicate"]))
        // No address, no `remoteip` field.
        #expect(Self.fields(try await standIn.nextMessage()) == ["response": "pass-1"])

        let fresh = try await captcha.siteverify(token: "pass-2", remoteIP: nil)
        #expect(fresh == SiteverifyCaptcha.Outcome(success: true, errorCodes: [], hostname: "lifesignal.test"))
    }

    @Test("a wrong secret is false (invalid-input-secret) and leaves the token unused; an unsolved token is false")
    func refusals() async throws {
        let standIn = try await StandInProcess.start("captcha_standin.py", arguments: [Self.secret])
        defer { standIn.stop() }
        let wrong = try Self.captcha(standIn, secret: "not-the-secret")
        #expect(try await wrong.verify(token: "pass-1", remoteIP: "203.0.113.7") == false)
        let record = try await standIn.nextMessage()
        #expect(record["secret"] as? String == "wrong")
        #expect(record["error_codes"] as? [String] == ["invalid-input-secret"])
        #expect(try await wrong.siteverify(token: "pass-1", remoteIP: nil).errorCodes == ["invalid-input-secret"])

        let right = try Self.captcha(standIn)
        #expect(try await right.verify(token: "pass-1", remoteIP: nil))
        #expect(try await right.verify(token: "solved-elsewhere", remoteIP: nil) == false)
        #expect(try await right.siteverify(token: "solved-elsewhere", remoteIP: nil).errorCodes == ["invalid-input-response"])
    }

    @Test("an empty token is false without a request")
    func emptyToken() async throws {
        let standIn = try await StandInProcess.start("captcha_standin.py", arguments: [Self.secret])
        defer { standIn.stop() }
        let captcha = try Self.captcha(standIn)
        #expect(try await captcha.verify(token: "", remoteIP: "203.0.113.7") == false)
        #expect(try await captcha.siteverify(token: "", remoteIP: nil) == SiteverifyCaptcha.Outcome(success: false, errorCodes: ["missing-input-response"]))
        // A request after: the first record the stand-in printed is that one's.
        #expect(try await captcha.verify(token: "pass-after", remoteIP: nil))
        #expect(Self.fields(try await standIn.nextMessage()) == ["response": "pass-after"])
        #expect(standIn.messageCount == 1)
    }

    @Test("a non-2xx answer or one that is not siteverify JSON throws, and no description holds the secret")
    func nonsense() async throws {
        let standIn = try await StandInProcess.start("captcha_standin.py", arguments: [Self.secret])
        defer { standIn.stop() }
        let captcha = try Self.captcha(standIn, provider: .turnstile)

        // The 500 echoes the form, secret included: it must not reach the error.
        let failed = await #expect(throws: SiteverifyError.self) { try await captcha.verify(token: "fail-500", remoteIP: nil) }
        guard case .status(.turnstile, 500, let excerpt) = failed else {
            Issue.record("not a 500: \(String(describing: failed))")
            return
        }
        #expect(excerpt.contains("upstream failed for secret=<secret>&response=fail-500"))

        let garbage = await #expect(throws: SiteverifyError.self) { try await captcha.verify(token: "fail-garbage", remoteIP: nil) }
        #expect(garbage == .undecodable(.turnstile, excerpt: "<html>not json</html>"))
        let noSuccess = await #expect(throws: SiteverifyError.self) { try await captcha.verify(token: "fail-nosuccess", remoteIP: nil) }
        #expect(noSuccess == .undecodable(.turnstile, excerpt: #"{"error-codes": []}"#))

        for error in [failed, garbage, noSuccess].compactMap(\.self) {
            #expect(!error.description.contains(Self.secret))
            #expect(!error.description.contains(TwilioClient.formEncoded(Self.secret)))
            #expect(error.description.contains("Cloudflare Turnstile"))
        }
    }

    @Test("a server that is not listening throws within the timeout, without the secret")
    func unreachable() async throws {
        let standIn = try await StandInProcess.start("captcha_standin.py", arguments: [Self.secret])
        let captcha = try Self.captcha(standIn, timeout: .seconds(2))
        standIn.stop()
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        let error = await #expect(throws: SiteverifyError.self) { try await captcha.verify(token: "pass-1", remoteIP: "203.0.113.7") }
        #expect(ContinuousClock.now - started < .seconds(10))
        switch error {
        case .unreachable(.hcaptcha, _)?, .timedOut(.hcaptcha, _)?: break
        default: Issue.record("not a connection failure: \(String(describing: error))")
        }
        #expect(error?.description.contains(Self.secret) == false)
    }

    @Test("each provider's URL by default; the description and mirror leave the secret out")
    func defaults() {
        #expect(SiteverifyCaptcha.Provider.hcaptcha.defaultURL.absoluteString == "https://api.hcaptcha.com/siteverify")
        #expect(SiteverifyCaptcha.Provider.turnstile.defaultURL.absoluteString == "https://challenges.cloudflare.com/turnstile/v0/siteverify")
        let captcha = SiteverifyCaptcha(provider: .turnstile, secret: Self.secret)
        #expect(captcha.url == SiteverifyCaptcha.Provider.turnstile.defaultURL)
        #expect(captcha.timeout == .seconds(10))
        #expect(SiteverifyCaptcha.Provider(rawValue: "hcaptcha") == .hcaptcha)
        var dumped = ""
        dump(captcha, to: &dumped)
        for text in [String(describing: captcha), String(reflecting: captcha), dumped] {
            #expect(!text.contains(Self.secret))
            #expect(text.contains("turnstile"))
        }
    }
}
