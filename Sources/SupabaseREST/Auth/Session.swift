import Foundation

/// A signed-in session, as GoTrue returns it (`AccessTokenResponse`).
public struct Session: Codable, Hashable, Sendable {
    /// The JWT sent as `Authorization: Bearer …` to the other services.
    public var accessToken: String
    /// Always `bearer`.
    public var tokenType: String
    /// The access token's lifetime in seconds, as issued.
    public var expiresIn: TimeInterval
    /// When the access token expires, in seconds since 1970.
    public var expiresAt: TimeInterval
    /// The single-use token that obtains the next session.
    public var refreshToken: String
    /// The signed-in user.
    public var user: User
    /// OAuth provider token, for OAuth sign-ins only.
    public var providerToken: String?
    /// OAuth provider refresh token, for OAuth sign-ins only.
    public var providerRefreshToken: String?

    /// Creates a session.
    public init(
        accessToken: String,
        tokenType: String = "bearer",
        expiresIn: TimeInterval,
        expiresAt: TimeInterval,
        refreshToken: String,
        user: User,
        providerToken: String? = nil,
        providerRefreshToken: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.expiresAt = expiresAt
        self.refreshToken = refreshToken
        self.user = user
        self.providerToken = providerToken
        self.providerRefreshToken = providerRefreshToken
    }

    /// Whether the access token has expired (no margin).
    public var isExpired: Bool { expiresAt <= Date().timeIntervalSince1970 }

    private enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
        case user
        case providerToken = "provider_token"
        case providerRefreshToken = "provider_refresh_token"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? "bearer"
        expiresIn = try container.decode(TimeInterval.self, forKey: .expiresIn)
        // `expires_at` is absent from some older servers: derive it from the lifetime.
        expiresAt =
            try container.decodeIfPresent(TimeInterval.self, forKey: .expiresAt)
            ?? Date().timeIntervalSince1970 + expiresIn
        refreshToken = try container.decode(String.self, forKey: .refreshToken)
        user = try container.decode(User.self, forKey: .user)
        providerToken = try container.decodeIfPresent(String.self, forKey: .providerToken)
        providerRefreshToken = try container.decodeIfPresent(String.self, forKey: .providerRefreshToken)
    }
}

/// What sign-up and OTP verification return: a session when the user is signed in right
/// away, otherwise only the user (e.g. an email awaiting confirmation).
public enum AuthResponse: Sendable, Hashable {
    case session(Session)
    case user(User)

    /// The user, in both cases.
    public var user: User {
        switch self {
        case .session(let session): session.user
        case .user(let user): user
        }
    }

    /// The session, when the user is signed in.
    public var session: Session? {
        if case .session(let session) = self { session } else { nil }
    }
}

/// A change of the signed-in state, delivered by ``AuthClient/authStateChanges``.
public enum AuthChangeEvent: String, Sendable {
    /// The first event of every stream: the session at subscription time (maybe `nil`).
    case initialSession = "INITIAL_SESSION"
    case passwordRecovery = "PASSWORD_RECOVERY"
    case signedIn = "SIGNED_IN"
    case signedOut = "SIGNED_OUT"
    case tokenRefreshed = "TOKEN_REFRESHED"
    case userUpdated = "USER_UPDATED"
    case userDeleted = "USER_DELETED"
    case mfaChallengeVerified = "MFA_CHALLENGE_VERIFIED"
}

/// Which sessions ``AuthClient/signOut(scope:)`` revokes on the server.
public enum SignOutScope: String, Sendable {
    /// Every session of the user (GoTrue's default).
    case global
    /// Only this session.
    case local
    /// Every session except this one (the local session is kept).
    case others
}

/// How a phone one-time code is delivered.
public enum MessagingChannel: String, Sendable {
    case sms
    case whatsapp
}

/// The purpose of a phone one-time code being verified.
public enum MobileOTPType: String, Sendable {
    /// Sign-in / sign-up by SMS code.
    case sms
    /// Confirming a phone number change.
    case phoneChange = "phone_change"
}

/// The purpose of an email one-time code being verified.
public enum EmailOTPType: String, Sendable {
    case signup, invite, magiclink, recovery, email
    case emailChange = "email_change"
}
