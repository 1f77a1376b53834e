import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Firebase's way to change a number (`AuthService.verifyPhoneChange(user:phone:code:)`): a
/// sign-in code sent to the new number proves it for the signed-in person who presents it.
@Suite("Phone change by a sign-in code")
struct PhoneCredentialTests {
    static let ann = "+15550007001", bob = "+15550007002", new = "+15550007003"

    @Test("the code moves the person presenting it; a wrong code and a taken number change nothing", arguments: Engine.allCases)
    func move(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.signIn(Self.ann)
        let bob = try await test.signIn(Self.bob)
        let auth = test.backend.auth

        try await auth.requestCode(phone: Self.new)
        let code = try #require(await test.sms.lastCode(for: try PhoneNumber(Self.new)))
        let wrong = code.value == "000000" ? "000001" : "000000"
        await #expect(throws: DomainError.invalidOTP) { _ = try await auth.verifyPhoneChange(user: ann.user.id, phone: Self.new, code: wrong) }
        let moved = try await auth.verifyPhoneChange(user: ann.user.id, phone: Self.new, code: code.value)
        #expect(moved.user.id == ann.user.id && moved.user.phone?.e164 == Self.new && !moved.isNewUser)
        let profile = try await test.backend.database.query("SELECT phone FROM users WHERE id = \(SQLValue.uuid(ann.user.id.rawValue))")
        #expect(try profile.first?.string("phone") == Self.new)

        // Bob's number: refused, and the code Bob was sent still signs Bob in.
        try await auth.requestCode(phone: Self.bob)
        let bobCode = try #require(await test.sms.lastCode(for: try PhoneNumber(Self.bob)))
        await #expect(throws: AuthRefusal.phoneExists) { _ = try await auth.verifyPhoneChange(user: ann.user.id, phone: Self.bob, code: bobCode.value) }
        #expect(try await auth.verifyCode(phone: Self.bob, code: bobCode.value).user.id == bob.user.id)
        #expect(try await auth.user(id: ann.user.id)?.phone?.e164 == Self.new)
    }

    @Test("a sign-in code asked for after a pending phone change is a sign-in code", arguments: Engine.allCases)
    func signInAfterPendingChange(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.signIn(Self.ann)
        try await test.backend.auth.requestPhoneChange(user: ann.user.id, phone: Self.new)
        // Whoever holds the new number signs in with it once a new code may be sent; Ann's
        // pending change is replaced.
        test.clock.advance(by: OneTimeCode.resendInterval)
        let owner = try await test.signIn(Self.new)
        #expect(owner.isNewUser && owner.user.id != ann.user.id)
    }
}
