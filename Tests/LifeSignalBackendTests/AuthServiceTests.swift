import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

@Suite("Phone sign-in")
struct AuthServiceTests {
    @Test("a code sent by SMS signs a new person in and creates their profile", arguments: Engine.allCases)
    func signInCreatesAccount(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let session = try await test.signIn("+15550001111")
        #expect(session.isNewUser)
        #expect(session.user.phone?.e164 == "+15550001111")
        #expect(try await test.count("users") == 1)
        let claims = try await test.backend.auth.tokens.verify(session.accessToken)
        #expect(claims.sub == session.user.id.description)
        #expect(claims.role == "authenticated")
        #expect(claims.exp == Int(test.clock.now.timeIntervalSince1970) + 3600)

        let again = try await test.signIn("+1 555 000 1111")
        #expect(!again.isNewUser)
        #expect(again.user.id == session.user.id)
        #expect(try await test.count("users") == 1)
    }

    @Test("a number that is not E.164 is refused and nothing is stored", arguments: Engine.allCases)
    func invalidPhone(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        for bad in ["5550001111", "+0555000111", "+12", "+1555000111122223", "+1555abc1111", ""] {
            await #expect(throws: DomainError.invalidPhone(bad)) { try await test.backend.auth.requestCode(phone: bad) }
        }
        #expect(try await test.count("auth_one_time_codes") == 0)
        #expect(await test.sms.sent.isEmpty)
    }

    @Test("a wrong code is refused, counted, and burns the code after five tries", arguments: Engine.allCases)
    func wrongCodes(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550002222=123456"))
        try await test.backend.auth.requestCode(phone: "+15550002222")
        for _ in 1..<OneTimeCode.maximumAttempts {
            await #expect(throws: DomainError.invalidOTP) { try await test.backend.auth.verifyCode(phone: "+15550002222", code: "000000") }
        }
        await #expect(throws: DomainError.tooManyAttempts) { try await test.backend.auth.verifyCode(phone: "+15550002222", code: "000000") }
        // The right code no longer works: the code was burned.
        await #expect(throws: DomainError.tooManyAttempts) { try await test.backend.auth.verifyCode(phone: "+15550002222", code: "123456") }
        #expect(try await test.count("auth_users") == 0)
        await #expect(throws: DomainError.invalidOTP) { try await test.backend.auth.verifyCode(phone: "+15550002222", code: "12345") }
    }

    @Test("a code expires five minutes after it was sent", arguments: Engine.allCases)
    func expiredCode(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550003333=654321"))
        try await test.backend.auth.requestCode(phone: "+15550003333")
        test.clock.advance(by: OneTimeCode.lifetime + 1)
        await #expect(throws: DomainError.otpExpired) { try await test.backend.auth.verifyCode(phone: "+15550003333", code: "654321") }
        #expect(try await test.count("auth_users") == 0)
        // A code never requested is "expired or never sent" as well.
        await #expect(throws: DomainError.otpExpired) { try await test.backend.auth.verifyCode(phone: "+15550004444", code: "654321") }
    }

    @Test("tokens are verified: tampering and expiry are refused", arguments: [Engine.sqlite])
    func tokens(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let session = try await test.signIn("+15550005555")
        #expect(try await test.backend.auth.tokens.caller(bearer: session.accessToken) == .user(session.user.id))
        #expect(try await test.backend.auth.tokens.caller(bearer: nil) == .anonymous)
        #expect(try await test.backend.auth.tokens.caller(bearer: test.backend.auth.tokens.apiKey(role: .serviceRole)) == .service)
        var parts = session.accessToken.split(separator: ".").map(String.init)
        parts[1] = String(parts[1].reversed())
        await #expect(throws: TokenError.badSignature) { try await test.backend.auth.tokens.caller(bearer: parts.joined(separator: ".")) }
        await #expect(throws: TokenError.malformed("Expected 3 parts in JWT; got 1")) { try await test.backend.auth.tokens.caller(bearer: "garbage") }
        let other = await JWTSigner(secret: "another-secret-with-at-least-32-characters").sign(TokenClaims(role: "service_role"))
        await #expect(throws: TokenError.badSignature) { try await test.backend.auth.tokens.caller(bearer: other) }
        test.clock.advance(by: 3600 + Double(JWTSigner.leeway) + 1)
        await #expect(throws: TokenError.expired) { try await test.backend.auth.tokens.caller(bearer: session.accessToken) }
    }

    @Test("fixed test codes are parsed, and bad entries are refused")
    func testCodes() throws {
        let codes = try TestOTPs(parsing: "+15550001111=123456, +15550002222=000001")
        #expect(codes.codes.count == 2)
        #expect(throws: DomainError.self) { try TestOTPs(parsing: "+15550001111") }
        #expect(throws: DomainError.invalidOTP) { try TestOTPs(parsing: "+15550001111=12") }
    }
}
