import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

/// The sign-in throttles over HTTP: GoTrue's 429 codes in both error formats, with
/// `Retry-After`, and nothing stored or sent for a refused request.
@Suite("/auth/v1 throttles")
struct AuthThrottleEndpointTests {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]

    @Test("a second code within the minute is 429 over_sms_send_rate_limit and sends nothing", arguments: Engine.allCases)
    func codeResend(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        #expect(try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550007777"]).status == 200)
        test.clock.advance(by: 20)

        let versioned = try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550007777"])
        #expect(versioned.status == 429)
        #expect(versioned.json?["code"] as? String == "over_sms_send_rate_limit")
        #expect(versioned.json?["message"] as? String == "For security purposes, you can only request this after 40 seconds.")
        #expect(versioned.header("Retry-After") == "40")
        let legacy = try await server.json("POST", "/auth/v1/otp", ["phone": "15550007777"])
        #expect(legacy.status == 429)
        #expect(legacy.json?["error_code"] as? String == "over_sms_send_rate_limit")
        #expect(legacy.json?["code"] as? Int == 429)
        #expect(legacy.header("x-sb-error-code") == "over_sms_send_rate_limit")
        #expect(await test.sms.sent.count == 1)
        #expect(try await test.count("auth_one_time_codes") == 1)

        test.clock.advance(by: 40)
        #expect(try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550007777"]).status == 200)
        #expect(await test.sms.sent.count == 2)
    }

    @Test("the eleventh password in fifteen minutes is 429 over_request_rate_limit, even when right", arguments: Engine.allCases)
    func passwordGuessing(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let credentials: [String: any Sendable] = ["email": "ada@example.org", "password": "lovelace1815"]
        #expect(try await server.json("POST", "/auth/v1/signup", headers: Self.version, credentials).status == 200)
        for _ in 0..<AuthService.passwordFailureLimit {
            let wrong = try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version,
                                              ["email": "ada@example.org", "password": "babbage"])
            #expect(wrong.status == 400 && wrong.json?["code"] as? String == "invalid_credentials")
        }
        let refused = try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials)
        #expect(refused.status == 429)
        #expect(refused.json?["code"] as? String == "over_request_rate_limit")
        #expect(refused.header("Retry-After") == String(Int(AuthService.passwordFailureWindow)))
        #expect(try await test.count("auth_sessions") == 1, "only the sign-up's session exists")

        test.clock.advance(by: AuthService.passwordFailureWindow)
        #expect(try await server.json("POST", "/auth/v1/token?grant_type=password", headers: Self.version, credentials).status == 200)
    }
}
