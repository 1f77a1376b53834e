import Foundation

/// The tokens of a signed-in user, with the moment the ID token stops being accepted.
public struct AuthTokens: Sendable, Equatable, Codable {
    /// The Firebase ID token (a JWT, valid for one hour) sent to Firestore, Storage, functions.
    public var idToken: String
    /// The long-lived token exchanged for a new ID token.
    public var refreshToken: String
    /// When ``idToken`` expires (issue time plus `expiresIn`).
    public var expiresAt: Date
    /// The user's uid.
    public var localId: String

    /// Creates a token set.
    public init(idToken: String, refreshToken: String, expiresAt: Date, localId: String) {
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.localId = localId
    }
}

/// The reply of every sign-in call (`signUp`, `signInWithPassword`, `signInWithPhoneNumber`).
///
/// The calls answer overlapping subsets of these fields, so all but the tokens are optional.
public struct SignInResponse: Sendable, Equatable, Codable {
    public var idToken: String
    public var refreshToken: String
    /// Seconds until the ID token expires, as a string (`"3600"`) — the wire spelling.
    public var expiresIn: String
    public var localId: String
    public var email: String?
    public var displayName: String?
    /// `signInWithPassword`: whether the email belongs to an existing account.
    public var registered: Bool?
    /// `signInWithPhoneNumber`: whether this sign-in created the account.
    public var isNewUser: Bool?
    public var phoneNumber: String?

    /// The tokens, with the expiry computed from `issuedAt` (a malformed `expiresIn` is read
    /// as one hour, the only value Firebase issues).
    public func tokens(issuedAt: Date = Date()) -> AuthTokens {
        let seconds = TimeInterval(expiresIn) ?? 3600
        return AuthTokens(
            idToken: idToken, refreshToken: refreshToken, expiresAt: issuedAt.addingTimeInterval(seconds),
            localId: localId)
    }
}

/// The Secure Token service's reply to a refresh, in its snake_case spelling.
public struct RefreshTokenResponse: Sendable, Equatable, Codable {
    public var idToken: String
    public var refreshToken: String
    public var expiresIn: String
    public var tokenType: String?
    public var userId: String
    public var projectId: String?

    enum CodingKeys: String, CodingKey {
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
        case tokenType = "token_type"
        case userId = "user_id"
        case projectId = "project_id"
    }

    /// The tokens, with the expiry computed from `issuedAt`.
    public func tokens(issuedAt: Date = Date()) -> AuthTokens {
        let seconds = TimeInterval(expiresIn) ?? 3600
        return AuthTokens(
            idToken: idToken, refreshToken: refreshToken, expiresAt: issuedAt.addingTimeInterval(seconds),
            localId: userId)
    }
}

/// One account as `accounts:lookup` describes it. Timestamps stay strings of epoch
/// milliseconds, as sent, because their spelling differs between fields.
public struct UserRecord: Sendable, Equatable, Codable {
    public var localId: String
    public var email: String?
    public var emailVerified: Bool?
    public var displayName: String?
    public var photoUrl: String?
    public var phoneNumber: String?
    public var disabled: Bool?
    public var createdAt: String?
    public var lastLoginAt: String?
}

/// What `accounts:update` should change. `nil` leaves a field alone; deleting a display name
/// or photo goes through ``deleteAttributes`` because the API has no "set to null".
public struct UserUpdate: Sendable, Equatable {
    /// Attributes that can be removed.
    public enum Attribute: String, Sendable {
        case displayName = "DISPLAY_NAME"
        case photoURL = "PHOTO_URL"
    }

    public var email: String?
    public var password: String?
    public var displayName: String?
    public var photoURL: String?
    public var deleteAttributes: [Attribute]
    /// Provider ids to unlink (`phone`, `password`, …).
    public var deleteProviders: [String]
    /// Whether to return fresh tokens. Changing the email or password revokes the old ones,
    /// so the default asks for new tokens.
    public var returnSecureToken: Bool

    /// Creates an update.
    public init(
        email: String? = nil, password: String? = nil, displayName: String? = nil, photoURL: String? = nil,
        deleteAttributes: [Attribute] = [], deleteProviders: [String] = [], returnSecureToken: Bool = true
    ) {
        self.email = email
        self.password = password
        self.displayName = displayName
        self.photoURL = photoURL
        self.deleteAttributes = deleteAttributes
        self.deleteProviders = deleteProviders
        self.returnSecureToken = returnSecureToken
    }
}

/// The reply of `accounts:update`; the tokens are present when they were rotated.
public struct UpdateAccountResponse: Sendable, Equatable, Codable {
    public var localId: String?
    public var email: String?
    public var displayName: String?
    public var photoUrl: String?
    public var emailVerified: Bool?
    public var idToken: String?
    public var refreshToken: String?
    public var expiresIn: String?

    /// The new tokens, when the server issued some.
    public func tokens(issuedAt: Date = Date()) -> AuthTokens? {
        guard let idToken, let refreshToken, let localId else { return nil }
        let seconds = expiresIn.flatMap(TimeInterval.init) ?? 3600
        return AuthTokens(
            idToken: idToken, refreshToken: refreshToken, expiresAt: issuedAt.addingTimeInterval(seconds),
            localId: localId)
    }
}

/// The reply of `accounts:resetPassword` (both verifying a code and setting the password).
public struct ResetPasswordResponse: Sendable, Equatable, Codable {
    public var email: String?
    public var requestType: String?
}

/// The proof of "not a bot" that `accounts:sendVerificationCode` needs outside the emulator:
/// a reCAPTCHA token, an APNs silent-push receipt, or a Play Integrity token.
public struct PhoneVerificationRequest: Sendable, Equatable, Codable {
    public var phoneNumber: String
    public var recaptchaToken: String?
    public var iosReceipt: String?
    public var iosSecret: String?
    public var playIntegrityToken: String?

    /// Creates a request for `phoneNumber` (E.164, e.g. `+15555550100`).
    public init(
        phoneNumber: String, recaptchaToken: String? = nil, iosReceipt: String? = nil, iosSecret: String? = nil,
        playIntegrityToken: String? = nil
    ) {
        self.phoneNumber = phoneNumber
        self.recaptchaToken = recaptchaToken
        self.iosReceipt = iosReceipt
        self.iosSecret = iosSecret
        self.playIntegrityToken = playIntegrityToken
    }
}
