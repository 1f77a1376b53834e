import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The rules behind `/auth/v1`, in parts, each a small type with its own dependencies:
///
/// - ``tokens`` (``AccessTokens``): LifeSignal's access tokens and API keys;
/// - ``sessions`` (``Sessions``): sessions, refresh rotation, reuse detection, sign-out scopes;
/// - ``cookies`` (``CookieSessions``): the same sessions carried by the web app's cookie;
/// - ``codes`` (``SignInCodes``): codes sent by SMS, the captcha, the resend interval and caps;
/// - ``reauthentication`` (``Reauthentication``): proof asked before a sign-in method changes;
/// - ``identities`` (``ExternalIdentities``): Firebase ID tokens as callers;
/// - ``passwords`` (``Passwords``): hashing, the guessing throttle, password sign-in.
///
/// What is left here are the flows that span parts — a code exchanged for a session and an
/// account made on first sign-in, password sign-up and sign-in, email confirmation, phone
/// change, app metadata, retention — and the one check of a bearer (``authenticate(_:)``).
public struct AuthService: Sendable {
    let database: any Database
    public let clock: BackendClock
    public let tokens: AccessTokens
    public let sessions: Sessions
    /// The web app's cookies for the same sessions.
    public let cookies: CookieSessions
    public let codes: SignInCodes
    public let reauthentication: Reauthentication
    /// Set when a Firebase project's ID tokens are accepted as callers.
    public let identities: ExternalIdentities?
    public let passwords: Passwords
    let limits: SignInLimits
    /// Password length, the reauthentication window, refresh-token inactivity, session checks.
    public let policy: AuthPolicy
    /// Mails confirmation codes; with it, email addresses are confirmed before use
    /// (`AuthService+EmailConfirmation.swift`).
    let email: (any ChannelSender)?
    /// The daily counts and SMS countries codes are sent within.
    let rules: DeliveryRules

    init(
        database: any Database, clock: BackendClock, secret: String, sms: any SMSSender, testOTPs: TestOTPs, issuer: String,
        passwords: PasswordHasher = PasswordHasher(), limits: SignInLimits = SignInLimits(), policy: AuthPolicy = AuthPolicy(),
        firebase: FirebaseAuthSettings? = nil, email: (any ChannelSender)? = nil, rules: DeliveryRules = DeliveryRules(),
        captcha: (any CaptchaVerifier)? = nil
    ) {
        let tokens = AccessTokens(secret: secret, issuer: issuer, clock: clock)
        let codes = SignInCodes(
            database: database, clock: clock, secret: secret, sms: sms, testOTPs: testOTPs, limits: limits, rules: rules, captcha: captcha)
        self.database = database
        self.clock = clock
        self.tokens = tokens
        let sessions = Sessions(database: database, clock: clock, tokens: tokens, policy: policy)
        self.sessions = sessions
        self.cookies = CookieSessions(database: database, clock: clock, secret: secret, policy: policy)
        self.passwords = Passwords(database: database, clock: clock, hasher: passwords, limits: limits, sessions: sessions)
        self.codes = codes
        self.reauthentication = Reauthentication(database: database, clock: clock, codes: codes, policy: policy)
        self.identities = firebase.map { ExternalIdentities(database: database, clock: clock, settings: $0, issuer: issuer, policy: policy) }
        self.email = email
        self.rules = rules
        self.limits = limits
        self.policy = policy
    }

    // MARK: Phone sign-in

    /// Issues a fresh code for `phone` (replacing any earlier one) and sends it by SMS, or reads
    /// it out on a call (`channel`, for a landline: the same caps count it).
    /// `clientAddress` is where the request came from, when it came over the network: codes are
    /// capped per address as well as per number (`SignInCodes+Caps.swift`).
    public func requestCode(phone text: String, clientAddress: String? = nil, captchaToken: String? = nil, by channel: CodeChannel = .sms) async throws {
        let phone = try PhoneNumber(text)
        try await codes.checkCaptcha(captchaToken, clientAddress: clientAddress)
        try await codes.send(to: phone, purpose: "sms", user: nil, clientAddress: clientAddress, by: channel)
    }

    /// Exchanges a code for a session, creating the account on first sign-in.
    ///
    /// A wrong guess is counted and committed before the error is thrown, so the limit of
    /// ``OneTimeCode/maximumAttempts`` holds even though the error aborts the request.
    public func verifyCode(phone phoneText: String, code codeText: String) async throws -> IssuedSession {
        let phone = try PhoneNumber(phoneText)
        let code = try OneTimeCode(codeText)
        let now = clock.now()
        let outcome = try await database.transaction { connection in
            let check = try await codes.consume(phone: phone, code: code, purpose: "sms", now: now, in: connection)
            guard case .accepted = check else { return check }
            let (user, isNew) = try await Self.findOrCreateUser(phone: phone, now: now, in: connection)
            // A code came back from this number: it takes SMS again.
            try await SMSUnreachable.forget(phone.e164, in: connection)
            return .issued(try await sessions.start(for: user, isNewUser: isNew, now: now, in: connection))
        }
        return try outcome.session()
    }

    // MARK: Accounts and bearers

    /// The account with this id, or `nil` when it does not exist (any more).
    public func user(id: UserID) async throws -> AuthUser? {
        try await database.query("SELECT * FROM auth_users WHERE id = \(SQLValue(id.rawValue))").first.map(AuthUser.init(row:))
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
        if let identities, identities.claimsToBeOurs(token) {
            return try await identities.claims(for: token)
        }
        return try await tokens.verify(token)
    }

    // MARK: Internals

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

    /// Whether two secrets are equal, in time that does not depend on where they differ.
    public static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
