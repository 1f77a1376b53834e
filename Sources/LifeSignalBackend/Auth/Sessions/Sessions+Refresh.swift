import Crypto
import Foundation
import LifeSignalDomain

extension Sessions {
    /// Starts a session for `user`, signed in by `method` (`otp` or `password`, the token's
    /// `amr`), in the transaction that proved who they are.
    func start(for user: AuthUser, method: String = "otp", isNewUser: Bool, now: Date, in connection: any SQLConnection) async throws
        -> IssuedSession
    {
        let sessionID = UUID()
        try await connection.query(
            """
            INSERT INTO auth_sessions (id, user_id, created_at, sign_in_method)
            VALUES (\(SQLValue(sessionID)), \(SQLValue(user.id.rawValue)), \(SQLValue(now)), \(method))
            """)
        return try await issue(
            for: user, sessionID: sessionID, method: AuthenticationMethod(method: method, timestamp: Int(now.timeIntervalSince1970)),
            isNewUser: isNewUser, now: now, in: connection)
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
            guard
                let token = try await connection.first(
                    SQL("SELECT session_id, revoked FROM auth_refresh_tokens WHERE token_hash = $1", bindings: [.text(hash)]) + connection.forUpdate)
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
                try await issue(for: try AuthUser(row: userRow), sessionID: sessionID, method: method, isNewUser: false, now: now, in: connection))
        }
        switch outcome {
        case .issued(let session): return session
        case .unknown: throw DomainError.notFound("Refresh token")
        case .reused:
            cache.forgetActive()
            throw DomainError.forbidden("Refresh token already used; the session was revoked")
        case .expired:
            cache.forgetActive()
            throw AuthRefusal.sessionExpired
        }
    }

    /// A fresh refresh token for the session and an access token naming it.
    private func issue(
        for user: AuthUser, sessionID: UUID, method: AuthenticationMethod, isNewUser: Bool, now: Date, in connection: any SQLConnection
    ) async throws -> IssuedSession {
        let refreshToken = Self.randomToken()
        try await connection.query(
            """
            INSERT INTO auth_refresh_tokens (token_hash, session_id, revoked, created_at)
            VALUES (\(Self.sha256(refreshToken)), \(SQLValue(sessionID)), \(false), \(SQLValue(now)))
            """)
        return IssuedSession(
            accessToken: await tokens.accessToken(for: user, session: sessionID, method: method, now: now), refreshToken: refreshToken,
            expiresIn: AccessTokens.lifetime, expiresAt: now + TimeInterval(AccessTokens.lifetime),
            sessionID: sessionID, user: user, isNewUser: isNewUser)
    }

    /// Refresh tokens are kept as their SHA-256: a copy of the table signs nobody in.
    static func sha256(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Base64URL.encode(bytes)
    }

    /// Forgets the cached answers of ``isActive(_:)`` that said "active": a session just ended.
    func forgetActive() { cache.forgetActive() }
}
