import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Which sessions `POST /logout` ends (GoTrue's `scope`): every session of the person (the
/// default), only the one the token names, or every other one.
public enum SignOutScope: String, Sendable, CaseIterable {
    case global, local, others
}

/// Authentication's sessions part, as GoTrue keeps them: a sign-in starts a session with a
/// refresh token that works once (rotation, reuse detection, an inactivity timeout); an
/// access token names its session (`session_id`), and once that session has ended — signed
/// out, revoked by a reused refresh token, ended by a password change or by inactivity — the
/// token is refused where the session is checked (`/auth/v1`, the functions, Realtime), even
/// before it expires. The web app's cookie sessions sit on this part.
public struct Sessions: Sendable {
    let database: any Database
    let clock: BackendClock
    let tokens: AccessTokens
    let policy: AuthPolicy
    let cache: SessionCache

    init(database: any Database, clock: BackendClock, tokens: AccessTokens, policy: AuthPolicy) {
        self.database = database
        self.clock = clock
        self.tokens = tokens
        self.policy = policy
        self.cache = SessionCache(staleness: policy.sessionCheckStaleness)
    }

    /// Global sign-out and "every other session" delete by person: without an index that is a
    /// scan of every session of every person.
    static let sessionsByUserMigration = Migration(
        version: 190, name: "auth sessions by user",
        statements: ["CREATE INDEX auth_sessions_user ON auth_sessions (user_id)"])

    /// Whether the session `claims` name is still active for the person they name.
    ///
    /// A token without `session_id` (or with GoTrue's nil UUID) names no session and passes,
    /// as in GoTrue: only tokens minted with the project secret outside sign-in look like that.
    /// One that names a session that is not a UUID does not. Answered from ``SessionCache``
    /// when it can be (at most ``AuthPolicy/sessionCheckStaleness`` old), else by one read of
    /// `auth_sessions` by primary key.
    public func isActive(_ claims: TokenClaims) async throws -> Bool {
        guard claims.role == DatabaseRole.authenticated.rawValue, let text = claims.sessionID, !text.isEmpty else { return true }
        guard let session = UUID(uuidString: text), let sub = claims.sub, let user = UUID(uuidString: sub) else { return false }
        if session == Self.nilUUID { return true }
        if let known = cache.lookup(session, user: user) { return known }
        let lookup: SQL = "SELECT user_id FROM auth_sessions WHERE id = \(SQLValue(session))"
        // Checks never wait for a writer's turn; a session is committed before any token
        // naming it is handed out.
        let row = try await database.readOutsideWriter(lookup).first
        let owner = row?.optionalUUID("user_id")
        cache.remember(session, user: owner)
        return owner == user
    }

    /// Ends sessions of `user` as `scope` says, relative to `session` (the caller's own, from
    /// its token's `session_id`); their refresh tokens go with them. Without a session to be
    /// relative to, every session ends, as GoTrue does for a token without `session_id`.
    public func signOut(user: UserID, session: UUID?, scope: SignOutScope) async throws {
        switch (scope, session) {
        case (.local, let session?):
            try await database.query("DELETE FROM auth_sessions WHERE id = \(SQLValue(session)) AND user_id = \(SQLValue(user.rawValue))")
        case (.others, let session?):
            try await database.query("DELETE FROM auth_sessions WHERE user_id = \(SQLValue(user.rawValue)) AND id <> \(SQLValue(session))")
        default:
            try await database.query("DELETE FROM auth_sessions WHERE user_id = \(SQLValue(user.rawValue))")
        }
        cache.forgetActive()
    }

    /// Ends one session: its refresh tokens stop working and its access tokens are refused
    /// wherever sessions are checked.
    public func signOut(sessionID: UUID) async throws {
        try await database.query("DELETE FROM auth_sessions WHERE id = \(SQLValue(sessionID))")
        cache.forgetActive()
    }

    /// Ends every session of `user` except `session` (all of them when `nil`), inside the
    /// transaction that changed the password: GoTrue's `UpdatePassword` does the same.
    func endOthers(of user: UserID, keeping session: UUID?, in connection: any SQLConnection) async throws {
        if let session {
            try await connection.query("DELETE FROM auth_sessions WHERE user_id = \(SQLValue(user.rawValue)) AND id <> \(SQLValue(session))")
        } else {
            try await connection.query("DELETE FROM auth_sessions WHERE user_id = \(SQLValue(user.rawValue))")
        }
    }

    /// The session id a token names, when it names one.
    public static func id(of claims: TokenClaims) -> UUID? {
        claims.sessionID.flatMap(UUID.init(uuidString:)).flatMap { $0 == nilUUID ? nil : $0 }
    }

    static let nilUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
