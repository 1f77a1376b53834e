import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

/// Sign-in that cannot be used as a lever: the password lockout holds under parallel guesses
/// (counted before the hash), and sign-in codes are capped per number and per client address.
@Suite("Sign-in levers")
struct SignInLeverTests {
    @Test("thirty parallel wrong passwords: ten are checked, twenty refused, and the right one then waits", arguments: Engine.allCases)
    func parallelGuesses(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let auth = test.backend.auth
        _ = try await auth.signUp(email: "ann@example.com", password: "correct horse")
        let hashedBefore = auth.passwords.hashing.statistics.completed
        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<30 {
                group.addTask {
                    do {
                        _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "guess")
                        return "signed in"
                    } catch AuthRefusal.invalidCredentials {
                        return "wrong"
                    } catch DomainError.rateLimited {
                        return "refused"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes == ["wrong": PasswordAttempts.limit, "refused": 30 - PasswordAttempts.limit])
        #expect(
            auth.passwords.hashing.statistics.completed - hashedBefore == PasswordAttempts.limit,
            "only the attempts within the limit reach the hash")
        await #expect(throws: DomainError.rateLimited(retryAfter: PasswordAttempts.window)) {
            _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "correct horse")
        }
        test.clock.advance(by: PasswordAttempts.window)
        _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "correct horse")
    }

    @Test("an attempt the hashing pool refuses is given back: load alone locks nobody out", arguments: [Engine.sqlite])
    func refusedHashIsNotCounted(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) {
            $0.signInLimits.passwordHashConcurrency = 1
            $0.signInLimits.passwordHashWaiting = 0
        }
        let auth = test.backend.auth
        _ = try await auth.signUp(email: "ann@example.com", password: "correct horse")
        let gate = DispatchSemaphore(value: 0)
        let holder = Task { try await auth.passwords.hashing.run { gate.wait() } }
        try await PasswordHashingPoolTests.eventually { auth.passwords.hashing.statistics.inFlight == 1 }
        for _ in 0..<(PasswordAttempts.limit + 5) {
            await #expect(throws: DomainError.rateLimited(retryAfter: PasswordHashingPool.retryAfter)) {
                _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "correct horse")
            }
        }
        gate.signal()
        try await holder.value
        _ = try await auth.passwords.signIn(email: "ann@example.com", phone: nil, password: "correct horse")
        #expect(try await test.count("auth_password_failures") == 0)
    }

    @Test("a number gets at most its codes a day; the window ends a day after its first code", arguments: Engine.allCases)
    func codesPerNumber(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) { $0.signInLimits.codesPerNumberPerDay = 3 }
        let auth = test.backend.auth
        for _ in 0..<3 {
            try await auth.requestCode(phone: "+15550007777")
            test.clock.advance(by: OneTimeCode.resendInterval)
        }
        let elapsed = 3 * OneTimeCode.resendInterval
        await #expect(throws: DomainError.rateLimited(retryAfter: SignInLimits.codeNumberWindow - elapsed)) {
            try await auth.requestCode(phone: "+15550007777")
        }
        // A phone change to that number is a code to it as well.
        let bob = try await test.signIn("+15550008888")
        await #expect(throws: DomainError.rateLimited(retryAfter: SignInLimits.codeNumberWindow - elapsed)) {
            try await auth.requestPhoneChange(user: bob.user.id, phone: "+15550007777")
        }
        #expect(await test.sms.sent.filter { $0.phone.e164 == "+15550007777" }.count == 3)
        try await auth.requestCode(phone: "+15550009999")  // other numbers are not affected

        test.clock.advance(by: SignInLimits.codeNumberWindow - elapsed)
        try await auth.requestCode(phone: "+15550007777")
        #expect(await test.sms.sent.filter { $0.phone.e164 == "+15550007777" }.count == 4)
    }

    @Test("one client address gets at most its codes an hour, to any numbers; others and in-process callers are not affected", arguments: Engine.allCases)
    func codesPerAddress(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) { $0.signInLimits.codesPerAddressPerHour = 3 }
        let auth = test.backend.auth
        for index in 0..<3 { try await auth.requestCode(phone: "+1555000100\(index)", clientAddress: "203.0.113.7") }
        test.clock.advance(by: 600)
        await #expect(throws: DomainError.rateLimited(retryAfter: SignInLimits.codeAddressWindow - 600)) {
            try await auth.requestCode(phone: "+15550001009", clientAddress: "203.0.113.7")
        }
        #expect(try await test.count("auth_one_time_codes") == 3, "a refused request stores no code")
        try await auth.requestCode(phone: "+15550001009", clientAddress: "203.0.113.8")
        try await auth.requestCode(phone: "+15550001008")
        #expect(await test.sms.sent.count == 5)

        test.clock.advance(by: SignInLimits.codeAddressWindow - 600)
        try await auth.requestCode(phone: "+15550001007", clientAddress: "203.0.113.7")
    }

    @Test("numbers with fixed test codes are not capped", arguments: [Engine.sqlite])
    func testNumbersAreNotCapped(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550007777=123456")) {
            $0.signInLimits.codesPerNumberPerDay = 1
            $0.signInLimits.codesPerAddressPerHour = 1
        }
        for _ in 0..<3 { try await test.backend.auth.requestCode(phone: "+15550007777", clientAddress: "203.0.113.7") }
        try await test.backend.auth.requestCode(phone: "+15550006666", clientAddress: "203.0.113.7")
        #expect(await test.sms.sent.count == 4)
    }
}
