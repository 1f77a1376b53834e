import Foundation
import LifeSignalDomain
import Synchronization

/// Third-party sign-in with Firebase Auth, as Supabase offers it: a verified Firebase ID token
/// is a caller of every API, as the LifeSignal account linked to its Firebase uid.
///
/// Unlike Supabase, which hands the Firebase uid to the database as `sub` and leaves the rest
/// to the project's policies, the uid here is linked once to a LifeSignal account (made on
/// first use, as phone sign-in makes one), so `auth.uid()` is a LifeSignal user id and every
/// row policy, function and Realtime filter applies unchanged.
///
/// Authentication's external identities part: another issuer's verified token in, the claims
/// of the LifeSignal account it stands for out.
public struct ExternalIdentities: Sendable {
    let database: any Database
    let clock: BackendClock
    /// Checks Firebase ID tokens against the project's published keys.
    public let firebase: FirebaseIDTokenVerifier
    /// The `iss` of LifeSignal's own tokens, which the claims made here carry too.
    let issuer: String
    let links: IdentityLinkCache

    init(database: any Database, clock: BackendClock, settings: FirebaseAuthSettings, issuer: String, policy: AuthPolicy) {
        self.database = database
        self.clock = clock
        self.firebase = FirebaseIDTokenVerifier(settings: settings, clock: clock)
        self.issuer = issuer
        self.links = IdentityLinkCache(staleness: policy.sessionCheckStaleness)
    }

    /// Whether `token` says (unverified) it is this project's Firebase ID token: then it is
    /// checked as one and nothing else.
    func claimsToBeOurs(_ token: String) -> Bool { firebase.claimsToBeOurs(token) }

    /// The link from an outside issuer's subject (a Firebase uid) to the account it stands for.
    static let identityLinksMigration = Migration(
        version: 250, name: "auth identities: Firebase uids linked to accounts",
        statements: [
            """
            CREATE TABLE auth_identities (
                issuer text NOT NULL,
                subject text NOT NULL,
                user_id uuid NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (issuer, subject))
            """,
            "CREATE INDEX auth_identities_user ON auth_identities (user_id)",
        ],
        postgresOnly: ["ALTER TABLE auth_identities ENABLE ROW LEVEL SECURITY"])

    /// The claims a verified Firebase ID token stands for: an `authenticated` LifeSignal user
    /// (the linked account; no session, so sign-out through `/auth/v1` does not apply), with
    /// the token's lifetime and the phone and email Firebase gave.
    func claims(for token: String) async throws -> TokenClaims {
        let identity = try await firebase.verify(token)
        let account = try await linkedAccount(issuer: firebase.settings.issuer, identity: identity)
        var claims = TokenClaims(role: DatabaseRole.authenticated.rawValue)
        claims.iss = issuer
        claims.sub = account.id.description
        claims.aud = "authenticated"
        claims.iat = identity.issuedAt
        claims.exp = identity.expiresAt
        claims.phone = identity.phoneNumber.flatMap { try? PhoneNumber($0).digits }
        claims.email = identity.email
        claims.aal = "aal1"
        claims.isAnonymous = identity.signInProvider == "anonymous"
        claims.appMetadata = TokenAppMetadata(provider: "firebase", providers: ["firebase"], role: account.appRole)
        return claims
    }

    /// The account linked to `identity`, made (with its `users` row) on first use.
    ///
    /// Concurrent first uses make one account: on SQLite the writes take turns; on PostgreSQL
    /// the later link insert fails on the primary key, and that use reads the winner's link.
    /// An existing account is never linked by a matching phone or email (that would let another
    /// issuer's records take a LifeSignal account over); the new account takes the phone only
    /// when Firebase verified it in this sign-in (`sign_in_provider` `phone`) and the email only
    /// when verified, each if no other account holds it.
    func linkedAccount(issuer: String, identity: FirebaseIdentity) async throws -> LinkedAccount {
        let key = issuer + "\n" + identity.uid
        if let known = links.lookup(key) { return known }
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                let account = try await database.transaction { connection in
                    try await Self.findOrLink(issuer: issuer, identity: identity, now: clock.now(), in: connection)
                }
                links.remember(key, account)
                return account
            } catch DatabaseError.statement(sqlState: "23505", let message, let detail, let hint) {
                lastError = DatabaseError.statement(sqlState: "23505", message: message, detail: detail, hint: hint)
            }
        }
        throw lastError ?? DomainError.internal("the Firebase account could not be linked")
    }

    private static func findOrLink(issuer: String, identity: FirebaseIdentity, now: Date, in connection: any SQLConnection) async throws -> LinkedAccount {
        if let row = try await connection.first(
            """
            SELECT u.id, u.app_metadata FROM auth_identities i JOIN auth_users u ON u.id = i.user_id
            WHERE i.issuer = \(issuer) AND i.subject = \(identity.uid)
            """)
        {
            return try LinkedAccount(row: row)
        }
        var phone: PhoneNumber?
        if identity.signInProvider == "phone", let text = identity.phoneNumber, let number = try? PhoneNumber(text),
            try await connection.first("SELECT 1 AS taken FROM auth_users WHERE phone = \(number.digits)") == nil
        {
            phone = number
        }
        var email: String?
        if identity.emailVerified, let text = identity.email, let address = try? AuthService.normalizedEmail(text),
            try await connection.first("SELECT 1 AS taken FROM auth_users WHERE email = \(address)") == nil
        {
            email = address
        }
        let id = UUID()
        let stamp = SQLValue(now)
        guard
            let row = try await connection.first(
                """
                INSERT INTO auth_users (id, phone, phone_confirmed_at, email, email_confirmed_at, last_sign_in_at, created_at, updated_at)
                VALUES (\(SQLValue(id)), \(phone.map { SQLValue($0.digits) } ?? .null), \(phone == nil ? .null : stamp),
                        \(email.map { SQLValue($0) } ?? .null), \(email == nil ? .null : stamp), \(stamp), \(stamp), \(stamp))
                RETURNING id, app_metadata
                """)
        else { throw DomainError.internal("account was not created") }
        try await connection.query(
            """
            INSERT INTO users (id, phone, qr_code_id, created_at, updated_at)
            VALUES (\(SQLValue(id)), \(phone?.e164 ?? ""), \(SQLValue(UUID())), \(stamp), \(stamp))
            """)
        try await connection.query(
            """
            INSERT INTO auth_identities (issuer, subject, user_id, created_at)
            VALUES (\(issuer), \(identity.uid), \(SQLValue(id)), \(stamp))
            """)
        return try LinkedAccount(row: row)
    }

    /// The account a Firebase uid stands for, with what its tokens carry.
    struct LinkedAccount: Sendable, Hashable {
        var id: UserID
        var appRole: String?

        init(row: SQLRow) throws {
            id = UserID(try row.uuid("id"))
            appRole = AuthUser.appRole(in: row.optionalString("app_metadata") ?? "{}")
        }
    }
}

/// Links already read, so a Firebase caller's every request is not a database read: kept for
/// ``AuthPolicy/sessionCheckStaleness``, like sessions, so an account deleted (its link goes
/// with it) or made an editor through another server is noticed that late at most.
final class IdentityLinkCache: Sendable {
    static let capacity = 100_000

    private let links = Mutex<[String: (account: ExternalIdentities.LinkedAccount, seenAt: ContinuousClock.Instant)]>([:])
    private let staleness: Duration

    init(staleness: TimeInterval) {
        self.staleness = .milliseconds(Int64((staleness * 1000).rounded()))
    }

    func lookup(_ key: String) -> ExternalIdentities.LinkedAccount? {
        links.withLock { links in
            guard let entry = links[key], ContinuousClock.now - entry.seenAt < staleness else { return nil }
            return entry.account
        }
    }

    func remember(_ key: String, _ account: ExternalIdentities.LinkedAccount) {
        links.withLock { links in
            if links.count >= Self.capacity { links.removeAll(keepingCapacity: true) }
            links[key] = (account, ContinuousClock.now)
        }
    }
}
