import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// An account as the auth service knows it (GoTrue's user object, minus what we do not use).
public struct AuthUser: Sendable, Hashable {
    public var id: UserID
    public var phone: PhoneNumber?
    public var email: String?
    public var phoneConfirmedAt: Date?
    /// When the email address was proven (at sign-up without mail, or by its code).
    public var emailConfirmedAt: Date?
    /// An address the account asked to move to, waiting for its code.
    public var newEmail: String?
    public var lastSignInAt: Date?
    public var createdAt: Date
    public var updatedAt: Date
    /// GoTrue's `user_metadata`, as JSON object text.
    public var userMetadata = "{}"
    /// GoTrue's `app_metadata` as stored (JSON object text), set only with the service role;
    /// its `role` reaches the access token (``TokenAppMetadata``).
    public var appMetadata = "{}"

    /// The stored `app_metadata.role`, if it is a string.
    public var appRole: String? { Self.appRole(in: appMetadata) }

    /// The `role` of stored `app_metadata` text, if it is a string.
    static func appRole(in appMetadata: String) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(appMetadata.utf8)) as? [String: Any])?["role"] as? String
    }
}

/// What a successful sign-in or refresh hands back.
public struct IssuedSession: Sendable, Hashable {
    public var accessToken: String
    public var refreshToken: String
    public var expiresIn: Int
    public var expiresAt: Date
    public var sessionID: UUID
    public var user: AuthUser
    public var isNewUser: Bool

    /// The domain's view of the session, for in-process adapters.
    public var domainSession: AuthSession? {
        guard let phone = user.phone else { return nil }
        return AuthSession(
            userID: user.id, phone: phone, accessToken: accessToken, refreshToken: refreshToken,
            expiresAt: expiresAt, isNewUser: isNewUser)
    }
}

extension AuthUser {
    init(row: SQLRow) throws {
        id = UserID(try row.uuid("id"))
        phone = row.optionalString("phone").flatMap { try? PhoneNumber("+" + $0) }
        email = row.optionalString("email")
        phoneConfirmedAt = row.optionalDate("phone_confirmed_at")
        emailConfirmedAt = row.optionalDate("email_confirmed_at")
        newEmail = row.optionalString("email_change")
        lastSignInAt = row.optionalDate("last_sign_in_at")
        createdAt = try row.date("created_at")
        updatedAt = try row.date("updated_at")
        userMetadata = row.optionalString("user_metadata") ?? "{}"
        appMetadata = row.optionalString("app_metadata") ?? "{}"
    }
}
