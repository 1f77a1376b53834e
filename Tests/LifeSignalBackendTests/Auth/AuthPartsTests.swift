import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@testable import LifeSignalBackend

/// Each part of authentication built by itself, from only the dependencies it declares, over a
/// real database: what the part promises holds without the rest of `AuthService`.
@Suite("Authentication, part by part")
struct AuthPartsTests {
    static let secret = "auth-parts-secret-with-at-least-32-characters"
    static let phone = "+15550006001"

    /// A migrated database, its clock, and an account with a confirmed phone.
    struct Fixture {
        let test: TestBackend
        let user: AuthUser

        var database: any Database { test.backend.database }
        var clock: BackendClock { .manual(test.clock) }

        static func make(_ engine: Engine) async throws -> Fixture {
            let test = try await TestDatabases.backend(engine)
            let now = test.clock.now
            let phone = try PhoneNumber(AuthPartsTests.phone)
            let (user, _) = try await test.backend.database.transaction { connection in
                try await AuthService.findOrCreateUser(phone: phone, now: now, in: connection)
            }
            return Fixture(test: test, user: user)
        }

        func tokens() -> AccessTokens { AccessTokens(secret: AuthPartsTests.secret, issuer: "https://parts.test/auth/v1", clock: clock) }

        func sessions(_ policy: AuthPolicy = AuthPolicy()) -> Sessions {
            Sessions(database: database, clock: clock, tokens: tokens(), policy: policy)
        }

        func codes(sms: any SMSSender) -> SignInCodes {
            SignInCodes(
                database: database, clock: clock, secret: AuthPartsTests.secret, sms: sms, testOTPs: TestOTPs(), limits: SignInLimits(),
                rules: DeliveryRules(), captcha: nil)
        }

        func start(_ sessions: Sessions) async throws -> IssuedSession {
            let (user, now) = (self.user, test.clock.now)
            return try await database.transaction { try await sessions.start(for: user, isNewUser: false, now: now, in: $0) }
        }
    }

    @Test("tokens: an access token names its person, session and issuer, and expires after its lifetime")
    func tokens() async throws {
        let fixture = try await Fixture.make(.sqlite)
        let tokens = fixture.tokens()
        let session = UUID()
        let token = await tokens.accessToken(
            for: fixture.user, session: session, method: AuthenticationMethod(method: "otp", timestamp: 0), now: fixture.test.clock.now)
        let claims = try await tokens.verify(token)
        #expect(claims.sub == fixture.user.id.description)
        #expect(claims.sessionID == session.uuidString.lowercased())
        #expect(claims.iss == "https://parts.test/auth/v1")
        #expect(claims.exp == claims.iat.map { $0 + AccessTokens.lifetime })
        #expect(try AccessTokens.caller(claims: claims) == .user(fixture.user.id))
        #expect(try AccessTokens.caller(claims: try await tokens.verify(await tokens.apiKey(role: .anon))) == .anonymous)
        #expect(try AccessTokens.caller(claims: try await tokens.verify(await tokens.apiKey(role: .serviceRole))) == .service)
        #expect(throws: TokenError.unknownRole("postgres")) { try AccessTokens.caller(claims: TokenClaims(role: "postgres")) }
        #expect(throws: TokenError.malformed("invalid claim: missing sub claim")) {
            try AccessTokens.caller(claims: TokenClaims(role: "authenticated"))
        }
        fixture.test.clock.advance(by: TimeInterval(AccessTokens.lifetime) + 3600)
        await #expect(throws: TokenError.expired) { try await tokens.verify(token) }
        let stranger = AccessTokens(secret: String(AuthPartsTests.secret.reversed()), issuer: "x", clock: fixture.clock)
        await #expect(throws: TokenError.badSignature) { try await stranger.verify(await tokens.apiKey(role: .anon)) }
    }

    @Test("sessions: a refresh token works once; its reuse ends the session, and so does inactivity", arguments: Engine.allCases)
    func sessions(engine: Engine) async throws {
        let fixture = try await Fixture.make(engine)
        let sessions = fixture.sessions()
        let first = try await fixture.start(sessions)
        let rotated = try await sessions.refresh(refreshToken: first.refreshToken)
        #expect(rotated.sessionID == first.sessionID && rotated.refreshToken != first.refreshToken)
        await #expect(throws: DomainError.forbidden("Refresh token already used; the session was revoked")) {
            try await sessions.refresh(refreshToken: first.refreshToken)
        }
        await #expect(throws: DomainError.notFound("Refresh token"), "the reuse ended the whole session") {
            try await sessions.refresh(refreshToken: rotated.refreshToken)
        }

        let idle = try await fixture.start(sessions)
        fixture.test.clock.advance(by: AuthPolicy().refreshTokenInactivity + 1)
        await #expect(throws: AuthRefusal.sessionExpired) { try await sessions.refresh(refreshToken: idle.refreshToken) }
        #expect(try await fixture.test.count("auth_sessions") == 0)
    }

    @Test("sessions: sign-out ends one session, every other one, or all of them", arguments: Engine.allCases)
    func signOutScopes(engine: Engine) async throws {
        let fixture = try await Fixture.make(engine)
        let sessions = fixture.sessions()
        let kept = try await fixture.start(sessions)
        for _ in 0..<2 { _ = try await fixture.start(sessions) }
        try await sessions.signOut(user: fixture.user.id, session: kept.sessionID, scope: .others)
        #expect(try await fixture.test.count("auth_sessions") == 1)
        let claims = try await fixture.tokens().verify(kept.accessToken)
        #expect(try await sessions.isActive(claims))
        try await sessions.signOut(user: fixture.user.id, session: kept.sessionID, scope: .local)
        #expect(try await sessions.isActive(claims) == false)
        for _ in 0..<2 { _ = try await fixture.start(sessions) }
        try await sessions.signOut(user: fixture.user.id, session: nil, scope: .global)
        #expect(try await fixture.test.count("auth_sessions") == 0)
    }

    @Test("codes: wrong guesses burn a code, a used code is gone, purposes do not mix, resends wait", arguments: Engine.allCases)
    func codes(engine: Engine) async throws {
        let fixture = try await Fixture.make(engine)
        let sms = RecordingSMSSender()
        let codes = fixture.codes(sms: sms)
        let phone = try PhoneNumber(AuthPartsTests.phone)
        func consume(_ code: String, _ purpose: String = "sms") async throws -> String {
            let now = fixture.test.clock.now
            let outcome = try await fixture.database.transaction { connection in
                try await codes.consume(phone: phone, code: try OneTimeCode(code), purpose: purpose, now: now, in: connection)
            }
            return switch outcome {
            case .accepted: "accepted"
            case .issued: "issued"
            case .wrong: "wrong"
            case .burned: "burned"
            case .expired: "expired"
            }
        }

        try await codes.send(to: phone, purpose: "sms", user: nil, clientAddress: nil)
        let sent = try #require(await sms.lastCode(for: phone)).value
        let wrong = sent == "000000" ? "111111" : "000000"
        #expect(try await consume(sent, "reauthentication") == "expired", "a sign-in code proves nothing else")
        await #expect(throws: DomainError.self, "a second code waits for the resend interval") {
            try await codes.send(to: phone, purpose: "sms", user: nil, clientAddress: nil)
        }
        for _ in 1..<OneTimeCode.maximumAttempts { #expect(try await consume(wrong) == "wrong") }
        #expect(try await consume(wrong) == "burned")
        #expect(try await consume(sent) == "burned", "a burned code stays burned, even for the right guess")

        fixture.test.clock.advance(by: OneTimeCode.resendInterval)
        try await codes.send(to: phone, purpose: "sms", user: nil, clientAddress: nil)
        let fresh = try #require(await sms.lastCode(for: phone)).value
        #expect(try await consume(fresh) == "accepted")
        #expect(try await consume(fresh) == "expired", "a used code is gone")
        #expect(await sms.sent.count == 2)
    }

    @Test("password attempts: past the limit an identifier waits out the window; the right password clears it", arguments: Engine.allCases)
    func passwordAttempts(engine: Engine) async throws {
        let fixture = try await Fixture.make(engine)
        let attempts = PasswordAttempts(database: fixture.database)
        let now = fixture.test.clock.now
        for _ in 0..<PasswordAttempts.limit { #expect(try await attempts.reserve(for: "ann@example.org", now: now) == nil) }
        let wait = try #require(try await attempts.reserve(for: "ann@example.org", now: now))
        #expect(wait > 0 && wait <= PasswordAttempts.window)
        #expect(try await attempts.reserve(for: "bob@example.org", now: now) == nil, "counted per identifier")
        try await fixture.database.transaction { try await attempts.clear(for: "ann@example.org", in: $0) }
        #expect(try await attempts.reserve(for: "ann@example.org", now: now) == nil)
        for _ in 0..<PasswordAttempts.limit { _ = try await attempts.reserve(for: "ann@example.org", now: now) }
        #expect(try await attempts.reserve(for: "ann@example.org", now: now + PasswordAttempts.window + 1) == nil, "a new window")
    }

    @Test("passwords: the right one starts a session, a wrong one is refused and counted, an unknown account alike", arguments: Engine.allCases)
    func passwords(engine: Engine) async throws {
        let fixture = try await Fixture.make(engine)
        let outcome = try await fixture.test.backend.auth.signUp(email: "ann@example.org", password: "correct horse battery")
        guard case .session = outcome else { throw TestEnvironmentError(description: "sign-up without mail starts a session") }
        let passwords = Passwords(
            database: fixture.database, clock: fixture.clock, hasher: PasswordHasher(iterations: 1_000), limits: SignInLimits(),
            sessions: fixture.sessions())
        let session = try await passwords.signIn(email: "ANN@example.org", phone: nil, password: "correct horse battery")
        #expect(session.user.email == "ann@example.org")
        await #expect(throws: AuthRefusal.invalidCredentials) {
            try await passwords.signIn(email: "ann@example.org", phone: nil, password: "wrong horse")
        }
        await #expect(throws: AuthRefusal.invalidCredentials) {
            try await passwords.signIn(email: "nobody@example.org", phone: nil, password: "correct horse battery")
        }
        #expect(passwords.hashing.statistics.completed == 3, "an unknown account costs a hash too")
        #expect(try await fixture.test.count("auth_password_failures") == 2, "the right password cleared its identifier's count")
    }

    @Test("reauthentication: a recent sign-in passes; later a code sent to the confirmed phone, once", arguments: Engine.allCases)
    func reauthentication(engine: Engine) async throws {
        let fixture = try await Fixture.make(engine)
        let sms = RecordingSMSSender()
        let sessions = fixture.sessions()
        let reauthentication = Reauthentication(database: fixture.database, clock: fixture.clock, codes: fixture.codes(sms: sms), policy: AuthPolicy())
        let session = try await fixture.start(sessions)
        try await reauthentication.ensure(user: fixture.user.id, session: session.sessionID, nonce: nil)

        fixture.test.clock.advance(by: AuthPolicy().reauthenticationWindow + 1)
        await #expect(throws: AuthRefusal.reauthenticationNeeded) {
            try await reauthentication.ensure(user: fixture.user.id, session: session.sessionID, nonce: nil)
        }
        try await reauthentication.request(user: fixture.user.id)
        let code = try #require(await sms.lastCode(for: try PhoneNumber(AuthPartsTests.phone))).value
        try await reauthentication.ensure(user: fixture.user.id, session: session.sessionID, nonce: code)
        await #expect(throws: AuthRefusal.reauthenticationNotValid, "a nonce works once") {
            try await reauthentication.ensure(user: fixture.user.id, session: session.sessionID, nonce: code)
        }
    }
}
