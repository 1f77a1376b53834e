import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// GoTrue's user object, with the fields supabase-swift and supabase-js require.
struct GoTrueUser: Encodable {
    struct AppMetadata: Encodable {
        var provider: String
        var providers: [String]
        /// Set only with the service role; `"editor"` makes a content editor.
        var role: String?
    }

    var id: String
    var aud = "authenticated"
    var role = "authenticated"
    var email: String
    var phone: String
    var phoneConfirmedAt: String?
    var emailConfirmedAt: String?
    var confirmedAt: String?
    /// An address waiting for its `email_change` code.
    var newEmail: String?
    var lastSignInAt: String?
    var appMetadata: AppMetadata
    var userMetadata: JSONValue = .object([:])
    var identities: [String] = []
    var createdAt: String
    var updatedAt: String
    var isAnonymous = false

    enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities
        case phoneConfirmedAt = "phone_confirmed_at"
        case emailConfirmedAt = "email_confirmed_at"
        case newEmail = "new_email"
        case confirmedAt = "confirmed_at"
        case lastSignInAt = "last_sign_in_at"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case isAnonymous = "is_anonymous"
    }

    init(_ user: AuthUser) {
        id = user.id.description
        email = user.email ?? ""
        phone = user.phone?.digits ?? ""
        phoneConfirmedAt = user.phoneConfirmedAt.map(Self.format)
        emailConfirmedAt = user.emailConfirmedAt.map(Self.format)
        confirmedAt = phoneConfirmedAt ?? emailConfirmedAt
        newEmail = user.newEmail
        lastSignInAt = user.lastSignInAt.map(Self.format)
        userMetadata = (try? JSONDecoder().decode(JSONValue.self, from: Data(user.userMetadata.utf8))) ?? .object([:])
        let provider = user.phone != nil ? "phone" : "email"
        appMetadata = AppMetadata(provider: provider, providers: [provider], role: user.appRole)
        createdAt = Self.format(user.createdAt)
        updatedAt = Self.format(user.updatedAt)
    }

    /// GoTrue prints RFC 3339 with `Z`.
    static func format(_ date: Date) -> String {
        Timestamp.format(date).replacingOccurrences(of: "+00:00", with: "Z")
    }
}

/// GoTrue's `AccessTokenResponse`.
struct GoTrueSession: Encodable {
    var accessToken: String
    var tokenType = "bearer"
    var expiresIn: Int
    var expiresAt: Int
    var refreshToken: String
    var user: GoTrueUser

    enum CodingKeys: String, CodingKey {
        case user
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
    }

    init(_ session: IssuedSession) {
        accessToken = session.accessToken
        expiresIn = session.expiresIn
        expiresAt = Int(session.expiresAt.timeIntervalSince1970)
        refreshToken = session.refreshToken
        user = GoTrueUser(session.user)
    }
}

struct OTPRequest: Decodable {
    var phone: String?
    var email: String?
    /// GoTrue's `sms` (the default); `call` reads the code out on a call, for a landline.
    var channel: String?
    var security: GoTrueMetaSecurity?
    enum CodingKeys: String, CodingKey {
        case phone, email, channel
        case security = "gotrue_meta_security"
    }
}

/// GoTrue's `gotrue_meta_security`: the captcha a client solved (supabase-js and supabase-py
/// send it from `options.captchaToken`).
struct GoTrueMetaSecurity: Decodable {
    var captchaToken: String?
    enum CodingKeys: String, CodingKey { case captchaToken = "captcha_token" }
}

/// `POST /resend`.
struct ResendRequest: Decodable {
    var type: String
    var email: String?
    var security: GoTrueMetaSecurity?
    enum CodingKeys: String, CodingKey {
        case type
        case email
        case security = "gotrue_meta_security"
    }
}

struct VerifyRequest: Decodable {
    var type: String
    var phone: String?
    var email: String?
    var token: String
}

struct RefreshRequest: Decodable {
    var refreshToken: String
    enum CodingKeys: String, CodingKey { case refreshToken = "refresh_token" }
}

/// `POST /signup` and `POST /token?grant_type=password`.
struct PasswordRequest: Decodable {
    var email: String?
    var phone: String?
    var password: String?
    var data: JSONValue?
    var security: GoTrueMetaSecurity?
    enum CodingKeys: String, CodingKey {
        case email, phone, password, data
        case security = "gotrue_meta_security"
    }
}

/// `PUT /user`; `nonce` is a code from `GET /reauthenticate`.
struct UserUpdateRequest: Decodable {
    var email: String?
    var phone: String?
    var password: String?
    var nonce: String?
    var data: JSONValue?
}
