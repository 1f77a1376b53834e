import Crypto
import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Phone sign-in with one-time codes, sessions and tokens: the rules behind `/auth/v1`.
public struct AuthService: Sendable {
    public static let accessTokenLifetime = 3600
    /// Longest `captcha_token` passed to the captcha provider, in bytes.
    public static let maximumCaptchaTokenLength = 8192

    let database: any Database
    public let clock: BackendClock
    let signer: JWTSigner
    let codeKey: SymmetricKey
    let sms: any SMSSender
    let testOTPs: TestOTPs
    let issuer: String
    let passwords: PasswordHasher
    let limits: SignInLimits
    /// Password length, the reauthentication window, refresh-token inactivity, session checks.
    public let policy: AuthPolicy
    let sessionCache: SessionCache
    /// Where every password hash runs (`PasswordHashingPool`): off the cooperative pool, bounded.
    public let passwordHashing: PasswordHashingPool
    /// Checks Firebase ID tokens when a Firebase project is configured (`AuthService+Firebase.swift`).
    public let firebase: FirebaseIDTokenVerifier?
    let identityLinks: IdentityLinkCache
    /// Mails confirmation codes; with it, email addresses are confirmed before use
    /// (`AuthService+EmailConfirmation.swift`).
    let email: (any ChannelSender)?
    /// The daily counts and SMS countries codes are sent within.
    let rules: DeliveryRules
    /// Asked before a code is sent or an account made, when the operator demands a captcha.
    let captcha: (any CaptchaVerifier)?

    init(
        database: any Database, clock: BackendClock, secret: String, sms: any SMSSender, testOTPs: TestOTPs, issuer: String,
        passwords: PasswordHasher = PasswordHasher(), limits: SignInLimits = SignInLimits(), policy: AuthPolicy = AuthPolicy(),
        firebase: FirebaseAuthSettings? = nil, email: (any ChannelSender)? = nil, rules: DeliveryRules = DeliveryRules(),
        captcha: (any CaptchaVerifier)? = nil
    ) {
        self.email = email
        self.rules = rules
        self.captcha = captcha
        self.database = database
        self.clock = clock
        self.signer = JWTSigner(secret: secret)
        self.codeKey = SymmetricKey(data: SHA256.hash(data: Data(("otp:" + secret).utf8)))
        self.sms = sms
        self.testOTPs = testOTPs
        self.issuer = issuer
        self.passwords = passwords
        self.limits = limits
        self.policy = policy
        self.sessionCache = SessionCache(staleness: policy.sessionCheckStaleness)
        self.passwordHashing = PasswordHashingPool(maximumInFlight: limits.passwordHashConcurrency, maximumWaiting: limits.passwordHashWaiting)
        self.firebase = firebase.map { FirebaseIDTokenVerifier(settings: $0, clock: clock) }
        self.identityLinks = IdentityLinkCache(staleness: policy.sessionCheckStaleness)
    }

    // MARK: One-time codes

    /// Issues a fresh code for `phone` (replacing any earlier one) and sends it by SMS.
    /// `clientAddress` is where the request came from, when it came over the network: codes are
    /// capped per address as well as per number (`AuthService+SendingCaps.swift`).
    public func requestCode(phone text: String, clientAddress: String? = nil, captchaToken: String? = nil) async throws {
        let phone = try PhoneNumber(text)
        try await checkCaptcha(captchaToken, clientAddress: clientAddress)
        try await sendCode(to: phone, purpose: "sms", user: nil, clientAddress: clientAddress)
    }

    /// Refuses a request without a solved captcha when the operator demands one
    /// (``AuthRefusal/captchaFailed``); a provider that cannot be reached refuses too, since
    /// the captcha is what stands between a script and the operator's SMS bill.
    func checkCaptcha(_ token: String?, clientAddress: String?) async throws {
        guard let captcha else { return }
        guard let token, !token.isEmpty else { throw AuthRefusal.captchaFailed("no captcha_token was sent") }
        // hCaptcha's and Turnstile's tokens are at most a few kilobytes: a longer one is not sent on.
        guard token.utf8.count <= Self.maximumCaptchaTokenLength else { throw AuthRefusal.captchaFailed("the captcha_token is too long") }
        let solved: Bool
        do {
            solved = try await captcha.verify(token: token, remoteIP: clientAddress)
        } catch {
            throw AuthRefusal.captchaFailed("the captcha could not be checked")
        }
        guard solved else { throw AuthRefusal.captchaFailed("the captcha was not solved or was used before") }
    }

    /// Issues a fresh code of `purpose` for `phone`, replacing any earlier one (whatever its
    /// purpose), within the sending caps, and sends it by SMS. `user` is who the code is for
    /// when the code proves something about an account (reauthentication).
    func sendCode(to phone: PhoneNumber, purpose: String, user: UserID?, clientAddress: String?) async throws {
        var generator = SystemRandomNumberGenerator()
        let code = testOTPs.codes[phone] ?? OneTimeCode.random(using: &generator)
        let now = clock.now()
        let hash = codeHash(phone: phone, code: code)
        let owner: SQLValue = user.map { SQLValue($0.rawValue) } ?? .null
        _ = try await database.transaction { connection in
            try await ensureCodeMayBeSent(to: phone, from: clientAddress, now: now, in: connection)
            try await connection.query(
                """
                INSERT INTO auth_one_time_codes (phone, code_hash, attempts, expires_at, created_at, purpose, user_id)
                VALUES (\(phone.digits), \(hash), 0, \(SQLValue(now + OneTimeCode.lifetime)), \(SQLValue(now)), \(purpose), \(owner))
                ON CONFLICT (phone) DO UPDATE SET code_hash = excluded.code_hash, attempts = 0, expires_at = excluded.expires_at,
                    created_at = excluded.created_at, purpose = excluded.purpose, user_id = excluded.user_id
                """)
        }
        do {
            try await sms.send(code: code, to: phone)
        } catch {
            // The code never reached the phone, so it must not hold off a retry for the resend
            // interval; only this code goes (a newer one, sent meanwhile, stays).
            _ = try? await database.query("DELETE FROM auth_one_time_codes WHERE phone = \(phone.digits) AND code_hash = \(hash)")
            throw error
        }
    }

    /// What checking a one-time code found: the code's row (still to be acted on), a session
    /// issued for it, or why it failed.
    enum CodeOutcome: Sendable {
        case accepted(SQLRow)
        case issued(IssuedSession)
        case wrong, burned, expired

        func session() throws -> IssuedSession {
            switch self {
            case .issued(let session): return session
            case .accepted, .expired: throw DomainError.otpExpired
            case .wrong: throw DomainError.invalidOTP
            case .burned: throw DomainError.tooManyAttempts
            }
        }
    }

    /// Exchanges a code for a session, creating the account on first sign-in.
    ///
    /// A wrong guess is counted and committed before the error is thrown, so the limit of
    /// ``OneTimeCode/maximumAttempts`` holds even though the error aborts the request.
    public func verifyCode(phone phoneText: String, code codeText: String) async throws -> IssuedSession {
        let phone = try PhoneNumber(phoneText)
        let code = try OneTimeCode(codeText)
        let now = clock.now()
        let outcome: CodeOutcome = try await database.transaction { connection in
            let check = try await consumeCode(phone: phone, code: code, purpose: "sms", now: now, in: connection)
            guard case .accepted = check else { return check }
            let (user, isNew) = try await Self.findOrCreateUser(phone: phone, now: now, in: connection)
            // A code came back from this number: it takes SMS again.
            try await SMSUnreachable.forget(phone.e164, in: connection)
            return .issued(try await issueSession(for: user, isNewUser: isNew, now: now, in: connection))
        }
        return try outcome.session()
    }

    /// Checks `code` against the live code for `phone` of this `purpose`: deletes it when
    /// accepted or expired, counts a wrong guess otherwise. A code guessed wrong too often is
    /// kept, burned, until it expires or ``OneTimeCode/resendInterval`` lets a new one replace
    /// it: deleting it would let a guesser ask for a fresh code at once.
    func consumeCode(phone: PhoneNumber, code: OneTimeCode, purpose: String, now: Date, in connection: any SQLConnection) async throws -> CodeOutcome {
        let lock = connection.dialect == .postgres ? " FOR UPDATE" : ""
        guard
            let row = try await connection.first(
                SQL(
                    "SELECT code_hash, attempts, expires_at, user_id FROM auth_one_time_codes WHERE phone = $1 AND purpose = $2" + lock,
                    bindings: [.text(phone.digits), .text(purpose)]))
        else { return .expired }
        if try row.date("expires_at") <= now {
            try await connection.query("DELETE FROM auth_one_time_codes WHERE phone = \(phone.digits)")
            return .expired
        }
        let attemptsSoFar = try row.int("attempts")
        if attemptsSoFar >= OneTimeCode.maximumAttempts { return .burned }
        guard Self.constantTimeEqual(try row.string("code_hash"), codeHash(phone: phone, code: code)) else {
            let attempts = attemptsSoFar + 1
            try await connection.query("UPDATE auth_one_time_codes SET attempts = \(attempts) WHERE phone = \(phone.digits)")
            return attempts >= OneTimeCode.maximumAttempts ? .burned : .wrong
        }
        try await connection.query("DELETE FROM auth_one_time_codes WHERE phone = \(phone.digits)")
        return .accepted(row)
    }

    /// Exchanges a refresh token for a new session on the same sign-in, rotating the token.
    ///
    /// A refresh token works once. Presenting one that was already used means it leaked (or a
    /// client raced itself): the whole session is revoked, as GoTrue's reuse detection does.
    /// A session not refreshed for ``AuthPolicy/refreshTokenInactivity`` has ended: it is
    /// removed and refused with ``AuthRefusal/sessionExpired`` (GoTrue's inactivity timeout).
    public func refresh(refreshToken: String) async throws -> IssuedSession {
        let now = clock.now()
        let hash = Self.sha256(refreshToken)
        enum Outcome: Sendable {
            case issued(IssuedSession)
            case unknown, reused, expired
        }
        let outcome: Outcome = try await database.transaction { connection in
            let lock = connection.dialect == .postgres ? " FOR UPDATE" : ""
            guard
                let token = try await connection.first(
                    SQL(
                        "SELECT session_id, revoked FROM auth_refresh_tokens WHERE token_hash = $1" + lock, bindings: [.text(hash)]))
            else { return .unknown }
            let sessionID = try token.uuid("session_id")
            if try token.bool("revoked") {
                try await connection.query("DELETE FROM auth_sessions WHERE id = \(SQLValue(sessionID))")
                return .reused
            }
            guard
                let userRow = try await connection.first(
                    """
                    SELECT u.*, s.sign_in_method AS session_sign_in_method, s.created_at AS session_created_at,
                           s.refreshed_at AS session_refreshed_at
                    FROM auth_users u JOIN auth_sessions s ON s.user_id = u.id WHERE s.id = \(SQLValue(sessionID))
                    """)
            else { return .unknown }
            let lastActive = try userRow.optionalDate("session_refreshed_at") ?? userRow.date("session_created_at")
            if now.timeIntervalSince(lastActive) > policy.refreshTokenInactivity {
                try await connection.query("DELETE FROM auth_sessions WHERE id = \(SQLValue(sessionID))")
                return .expired
            }
            try await connection.query("UPDATE auth_refresh_tokens SET revoked = \(true) WHERE token_hash = \(hash)")
            try await connection.query("UPDATE auth_sessions SET refreshed_at = \(SQLValue(now)) WHERE id = \(SQLValue(sessionID))")
            let method = AuthenticationMethod(
                method: userRow.optionalString("session_sign_in_method") ?? "otp",
                timestamp: Int((userRow.optionalDate("session_created_at") ?? now).timeIntervalSince1970))
            return .issued(
                try await issueTokens(
                    for: try AuthUser(row: userRow), sessionID: sessionID, method: method,
                    isNewUser: false, now: now, in: connection))
        }
        switch outcome {
        case .issued(let session): return session
        case .unknown: throw DomainError.notFound("Refresh token")
        case .reused:
            sessionCache.forgetActive()
            throw DomainError.forbidden("Refresh token already used; the session was revoked")
        case .expired:
            sessionCache.forgetActive()
            throw AuthRefusal.sessionExpired
        }
    }

    /// The account with this id, or `nil` when it does not exist (any more).
    public func user(id: UserID) async throws -> AuthUser? {
        try await database.query("SELECT * FROM auth_users WHERE id = \(SQLValue(id.rawValue))").first.map(AuthUser.init(row:))
    }

    // MARK: Tokens

    /// The caller a bearer token stands for. No token is an anonymous caller; a token that is
    /// present but invalid is an error, never silently anonymous.
    public func caller(bearer token: String?) async throws(TokenError) -> Caller {
        guard let token, !token.isEmpty else { return .anonymous }
        return try caller(claims: await verify(token))
    }

    /// A LifeSignal token (an access token or an API key) and nothing else: the `apikey`
    /// header's check. Bearers of the APIs go through ``authenticate(_:)``.
    public func verify(_ token: String) async throws(TokenError) -> TokenClaims {
        try await signer.verify(token, now: clock.now())
    }

    /// The one way the server's APIs check a bearer token: every route group, the rate
    /// limiter and Realtime ask here, so a kind of token accepted in one place is accepted in
    /// all. Asynchronous because a token from another issuer (a Firebase ID token) may need
    /// that issuer's keys fetched, and its person looked up; invalid tokens throw
    /// ``TokenError``, an unreachable database its ``DatabaseError``.
    ///
    /// A token whose (unverified) `iss` is the configured Firebase project's is checked as a
    /// Firebase ID token and nothing else, and stands for the LifeSignal account linked to its
    /// uid (made on first use); every other token is checked as LifeSignal's own.
    public func authenticate(_ token: String) async throws -> TokenClaims {
        if let firebase, firebase.claimsToBeOurs(token) {
            return try await firebaseClaims(token, verifier: firebase)
        }
        return try await verify(token)
    }

    public func caller(claims: TokenClaims) throws(TokenError) -> Caller {
        switch claims.role {
        case DatabaseRole.anon.rawValue: return .anonymous
        case DatabaseRole.serviceRole.rawValue: return .service
        case DatabaseRole.authenticated.rawValue:
            guard let sub = claims.sub, let id = UserID(string: sub) else {
                throw .malformed("invalid claim: missing sub claim")
            }
            return .user(id)
        default: throw .unknownRole(claims.role)
        }
    }

    /// A long-lived API key for `role` (`anon` or `service_role`), as Supabase's legacy keys.
    public func apiKey(role: DatabaseRole) async -> String {
        var claims = TokenClaims(role: role.rawValue)
        claims.iss = "supabase"
        claims.ref = "lifesignal"
        claims.iat = 1_700_000_000
        claims.exp = 4_900_000_000
        return await signer.sign(claims)
    }

    // MARK: Internals

    /// Starts a session signed in by `method` (`otp` or `password`, the token's `amr`).
    func issueSession(for user: AuthUser, method: String = "otp", isNewUser: Bool, now: Date, in connection: any SQLConnection) async throws -> IssuedSession {
        let sessionID = UUID()
        try await connection.query(
            """
            INSERT INTO auth_sessions (id, user_id, created_at, sign_in_method)
            VALUES (\(SQLValue(sessionID)), \(SQLValue(user.id.rawValue)), \(SQLValue(now)), \(method))
            """)
        return try await issueTokens(
            for: user, sessionID: sessionID, method: AuthenticationMethod(method: method, timestamp: Int(now.timeIntervalSince1970)),
            isNewUser: isNewUser, now: now, in: connection)
    }

    private func issueTokens(
        for user: AuthUser, sessionID: UUID, method: AuthenticationMethod, isNewUser: Bool, now: Date,
        in connection: any SQLConnection
    ) async throws -> IssuedSession {
        let refreshToken = Self.randomToken()
        try await connection.query(
            """
            INSERT INTO auth_refresh_tokens (token_hash, session_id, revoked, created_at)
            VALUES (\(Self.sha256(refreshToken)), \(SQLValue(sessionID)), \(false), \(SQLValue(now)))
            """)
        var claims = TokenClaims(role: DatabaseRole.authenticated.rawValue)
        claims.iss = issuer
        claims.sub = user.id.description
        claims.aud = "authenticated"
        claims.iat = Int(now.timeIntervalSince1970)
        claims.exp = claims.iat.map { $0 + Self.accessTokenLifetime }
        claims.sessionID = sessionID.uuidString.lowercased()
        claims.phone = user.phone?.digits
        claims.email = user.email
        claims.aal = "aal1"
        claims.amr = [method]
        claims.isAnonymous = false
        let provider = user.phone != nil ? "phone" : "email"
        claims.appMetadata = TokenAppMetadata(provider: provider, providers: [provider], role: user.appRole)
        return IssuedSession(
            accessToken: await signer.sign(claims), refreshToken: refreshToken,
            expiresIn: Self.accessTokenLifetime, expiresAt: now + TimeInterval(Self.accessTokenLifetime),
            sessionID: sessionID, user: user, isNewUser: isNewUser)
    }

    static func findOrCreateUser(phone: PhoneNumber, now: Date, in connection: any SQLConnection) async throws -> (AuthUser, Bool) {
        if let row = try await connection.first(
            """
            UPDATE auth_users SET last_sign_in_at = \(SQLValue(now)), updated_at = \(SQLValue(now))
            WHERE phone = \(phone.digits) RETURNING *
            """)
        {
            return (try AuthUser(row: row), false)
        }
        let id = UUID()
        guard
            let row = try await connection.first(
                """
                INSERT INTO auth_users (id, phone, phone_confirmed_at, last_sign_in_at, created_at, updated_at)
                VALUES (\(SQLValue(id)), \(phone.digits), \(SQLValue(now)), \(SQLValue(now)), \(SQLValue(now)), \(SQLValue(now)))
                RETURNING *
                """)
        else { throw DomainError.internal("account was not created") }
        try await connection.query(
            """
            INSERT INTO users (id, phone, qr_code_id, created_at, updated_at)
            VALUES (\(SQLValue(id)), \(phone.e164), \(SQLValue(UUID())), \(SQLValue(now)), \(SQLValue(now)))
            """)
        return (try AuthUser(row: row), true)
    }

    func codeHash(phone: PhoneNumber, code: OneTimeCode) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(phone.e164):\(code.value)".utf8), using: codeKey)
        return Data(mac).map { String(format: "%02x", $0) }.joined()
    }

    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return JWTSigner.base64URL(Data(bytes))
    }

    /// Whether two secrets are equal, in time that does not depend on where they differ.
    public static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
