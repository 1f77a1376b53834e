import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

@Suite("Sign-in throttles")
struct SignInThrottleTests {
    static let phone = "+15550007777"

    @Test("a new code waits a minute while the last one is unused; a used code frees the phone at once", arguments: Engine.allCases)
    func resendInterval(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let auth = test.backend.auth
        try await auth.requestCode(phone: Self.phone)
        await #expect(throws: DomainError.rateLimited(retryAfter: 60)) { try await auth.requestCode(phone: Self.phone) }
        test.clock.advance(by: 45)
        await #expect(throws: DomainError.rateLimited(retryAfter: 15)) { try await auth.requestCode(phone: Self.phone) }
        #expect(await test.sms.sent.count == 1)

        test.clock.advance(by: 15)
        try await auth.requestCode(phone: Self.phone)
        #expect(await test.sms.sent.count == 2)
        let code = try #require(await test.sms.lastCode(for: try PhoneNumber(Self.phone)))
        _ = try await auth.verifyCode(phone: Self.phone, code: code.value)
        // Signing in again right away is not a flood: the last code was used.
        try await auth.requestCode(phone: Self.phone)
        #expect(await test.sms.sent.count == 3)
    }

    @Test("a code burned by wrong guesses stays until the minute is up, so guessing cannot start over at once", arguments: Engine.allCases)
    func burnedCodeHoldsThePhone(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let auth = test.backend.auth
        try await auth.requestCode(phone: Self.phone)
        let code = try #require(await test.sms.lastCode(for: try PhoneNumber(Self.phone)))
        let wrong = code.value == "000000" ? "111111" : "000000"
        for _ in 1..<OneTimeCode.maximumAttempts {
            await #expect(throws: DomainError.invalidOTP) { try await auth.verifyCode(phone: Self.phone, code: wrong) }
        }
        await #expect(throws: DomainError.tooManyAttempts) { try await auth.verifyCode(phone: Self.phone, code: wrong) }
        await #expect(throws: DomainError.tooManyAttempts) { try await auth.verifyCode(phone: Self.phone, code: code.value) }
        test.clock.advance(by: 10)
        await #expect(throws: DomainError.rateLimited(retryAfter: 50)) { try await auth.requestCode(phone: Self.phone) }

        test.clock.advance(by: 50)
        try await auth.requestCode(phone: Self.phone)
        let fresh = try #require(await test.sms.lastCode(for: try PhoneNumber(Self.phone)))
        let session = try await auth.verifyCode(phone: Self.phone, code: fresh.value)
        #expect(session.isNewUser)
    }

    @Test("numbers with fixed test codes are not limited", arguments: [Engine.sqlite])
    func testNumbersAreNotLimited(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "\(Self.phone)=123456"))
        try await test.backend.auth.requestCode(phone: Self.phone)
        try await test.backend.auth.requestCode(phone: Self.phone)
        _ = try await test.backend.auth.verifyCode(phone: Self.phone, code: "123456")
    }

    @Test("a phone change code waits for the last code to that number too", arguments: [Engine.sqlite])
    func phoneChangeShareTheInterval(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let ann = try await test.signIn("+15550001111")
        try await test.backend.auth.requestCode(phone: Self.phone)
        await #expect(throws: DomainError.rateLimited(retryAfter: 60)) {
            try await test.backend.auth.requestPhoneChange(user: ann.user.id, phone: Self.phone)
        }
        #expect(await test.sms.sent.filter { $0.phone.e164 == Self.phone }.count == 1)
    }

    @Test("ten wrong passwords refuse the address for fifteen minutes, whether or not the account exists", arguments: Engine.allCases)
    func passwordFailures(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let auth = test.backend.auth
        _ = try await auth.signUp(email: "ann@example.com", password: "correct horse")
        for email in ["ann@example.com", "nobody@example.com"] {
            for _ in 0..<PasswordAttempts.limit {
                await #expect(throws: AuthRefusal.invalidCredentials) { _ = try await auth.passwords.signIn(email: email, phone: nil, password: "guess") }
            }
        }
        test.clock.advance(by: 60)
        // Even the right password waits: the limit is on the address, not on wrong answers.
        await #expect(throws: DomainError.rateLimited(retryAfter: PasswordAttempts.window - 60)) {
            _ = try await auth.passwords.signIn(email: "ANN@example.com", phone: nil, password: "correct horse")
        }
        await #expect(throws: DomainError.rateLimited(retryAfter: PasswordAttempts.window - 60)) {
            _ = try await auth.passwords.signIn(email: "nobody@example.com", phone: nil, password: "guess")
        }
        // Other addresses are not affected.
        _ = try await auth.signUp(email: "bob@example.com", password: "battery staple")
        _ = try await auth.passwords.signIn(email: "bob@example.com", phone: nil, password: "battery staple")

        test.clock.advance(by: PasswordAttempts.window - 60)
        _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "correct horse")
    }

    @Test("a correct password clears the count; a new window starts once the last one ended", arguments: [Engine.sqlite])
    func passwordFailuresReset(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let auth = test.backend.auth
        _ = try await auth.signUp(email: "ann@example.com", password: "correct horse")
        func fail(_ times: Int) async {
            for _ in 0..<times {
                await #expect(throws: AuthRefusal.invalidCredentials) {
                    _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "guess")
                }
            }
        }
        await fail(PasswordAttempts.limit - 1)
        _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "correct horse")
        await fail(PasswordAttempts.limit - 1)
        // Nine failures late in a window and one early in the next are not ten in a window.
        test.clock.advance(by: PasswordAttempts.window)
        await fail(1)
        _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "correct horse")
        #expect(try await test.count("auth_password_failures") == 0)
    }
}
