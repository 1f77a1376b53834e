import Crypto
import Foundation
import LifeSignalDomain

/// The web app's sessions: the very sessions `/auth/v1` keeps (`auth_sessions`), carried in a
/// cookie instead of a bearer token, so signing out, a password change ending the others, a
/// reused refresh token and the inactivity timeout end a browser's session exactly as they end
/// an app's.
///
/// The cookie names its session and person and carries an HMAC of both under a key derived
/// from the JWT secret for this purpose alone: it cannot be forged or moved to another
/// session, and it holds no access token (which would expire within the hour and need a
/// refresh token rotated by every tab at once, where reuse detection would end the session).
/// Each request looks the session up by primary key; activity moves its `refreshed_at` on at
/// most every ``touchInterval``, which is what the inactivity timeout reads.
public struct CookieSessions: Sendable {
    /// A browser's signed-in session, as a request's cookie proved it.
    public struct Session: Sendable, Hashable {
        public let user: UserID
        public let id: UUID
        /// The token every form of this session carries (`_csrf`): a page on another site
        /// cannot read it, so it cannot post as this person even where `Origin` is missing.
        public let csrfToken: String

        public var caller: Caller { .user(user) }
    }

    /// How stale `refreshed_at` may get before a request moves it on: one write per session
    /// per interval at most, however many pages are opened.
    public static let touchInterval: TimeInterval = 600

    let database: any Database
    let clock: BackendClock
    let policy: AuthPolicy
    let cookieKey: SymmetricKey
    let csrfKey: SymmetricKey

    init(database: any Database, clock: BackendClock, secret: String, policy: AuthPolicy) {
        self.database = database
        self.clock = clock
        self.policy = policy
        let material = SymmetricKey(data: Data(secret.utf8))
        func derive(_ label: String) -> SymmetricKey {
            HKDF<SHA256>.deriveKey(inputKeyMaterial: material, salt: Data("lifesignal web".utf8), info: Data(label.utf8), outputByteCount: 32)
        }
        cookieKey = derive("lifesignal web session cookie v1")
        csrfKey = derive("lifesignal web form token v1")
    }

    /// The cookie's value for a session just issued by a sign-in: `<session>.<person>.<tag>`.
    public func cookieValue(for session: IssuedSession) -> String {
        cookieValue(session: session.sessionID, user: session.user.id)
    }

    func cookieValue(session: UUID, user: UserID) -> String {
        let payload = Self.payload(session: session, user: user)
        return payload + "." + Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: cookieKey)))
    }

    /// The session a cookie stands for, or `nil` when the cookie is not one this server made
    /// or its session has ended (signed out, revoked, or inactive too long: then it is
    /// removed, as a refresh would remove it).
    public func session(fromCookie value: String) async throws -> Session? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let sessionID = UUID(uuidString: String(parts[0])), let user = UserID(string: String(parts[1])),
            let tag = Base64URL.decode(String(parts[2])),
            HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: Data(Self.payload(session: sessionID, user: user).utf8), using: cookieKey)
        else { return nil }
        let now = clock.now()
        let lookup: SQL = "SELECT user_id, created_at, refreshed_at FROM auth_sessions WHERE id = \(SQLValue(sessionID))"
        guard let row = try await database.readOutsideWriter(lookup).first, row.optionalUUID("user_id") == user.rawValue else { return nil }
        let lastActive = try row.optionalDate("refreshed_at") ?? row.date("created_at")
        if now.timeIntervalSince(lastActive) > policy.refreshTokenInactivity {
            try await database.query("DELETE FROM auth_sessions WHERE id = \(SQLValue(sessionID))")
            return nil
        }
        if now.timeIntervalSince(lastActive) > Self.touchInterval {
            try await database.query("UPDATE auth_sessions SET refreshed_at = \(SQLValue(now)) WHERE id = \(SQLValue(sessionID))")
        }
        return Session(user: user, id: sessionID, csrfToken: csrfToken(session: sessionID))
    }

    /// Whether a form's `_csrf` field is this session's token (compared in constant time).
    public func isValidFormToken(_ token: String?, for session: Session) -> Bool {
        guard let token, let given = Base64URL.decode(token) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(given, authenticating: Data(session.id.uuidString.lowercased().utf8), using: csrfKey)
    }

    func csrfToken(session: UUID) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(session.uuidString.lowercased().utf8), using: csrfKey)))
    }

    private static func payload(session: UUID, user: UserID) -> String {
        session.uuidString.lowercased() + "." + user.rawValue.uuidString.lowercased()
    }
}
