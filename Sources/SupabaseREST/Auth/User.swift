import Foundation

/// A GoTrue user, decoded from its snake_case JSON.
///
/// Only `id`, `aud`, `created_at` and `updated_at` are required, as in supabase-swift;
/// everything else is optional because GoTrue omits null fields, and metadata default to
/// empty objects.
public struct User: Codable, Hashable, Sendable, Identifiable {
    /// The user's identifier (`sub` of the access token).
    public var id: UUID
    /// The audience, `authenticated`.
    public var aud: String
    /// The database role, `authenticated`.
    public var role: String?
    /// The email address (GoTrue sends `""` when there is none).
    public var email: String?
    /// The phone number, E.164 digits without the `+` (GoTrue sends `""` when none).
    public var phone: String?
    /// When the user was created.
    public var createdAt: Date
    /// When the user was last changed.
    public var updatedAt: Date
    /// When the email or phone was first confirmed.
    public var confirmedAt: Date?
    /// When the email address was confirmed.
    public var emailConfirmedAt: Date?
    /// When the phone number was confirmed.
    public var phoneConfirmedAt: Date?
    /// When the user last signed in.
    public var lastSignInAt: Date?
    /// When the last confirmation message was sent.
    public var confirmationSentAt: Date?
    /// When the last password-recovery message was sent.
    public var recoverySentAt: Date?
    /// When the last email-change confirmation was sent.
    public var emailChangeSentAt: Date?
    /// When the user was invited.
    public var invitedAt: Date?
    /// An email address awaiting confirmation of a change.
    public var newEmail: String?
    /// A phone number awaiting confirmation of a change.
    public var newPhone: String?
    /// The end of a ban, when banned.
    public var bannedUntil: Date?
    /// Server-controlled metadata (`provider`, `providers`, …).
    public var appMetadata: [String: AnyJSON]
    /// User-editable metadata.
    public var userMetadata: [String: AnyJSON]
    /// The sign-in methods linked to the user.
    public var identities: [UserIdentity]?
    /// Whether the user signed in anonymously.
    public var isAnonymous: Bool

    /// Creates a user.
    public init(
        id: UUID,
        aud: String = "authenticated",
        role: String? = "authenticated",
        email: String? = nil,
        phone: String? = nil,
        createdAt: Date,
        updatedAt: Date,
        confirmedAt: Date? = nil,
        emailConfirmedAt: Date? = nil,
        phoneConfirmedAt: Date? = nil,
        lastSignInAt: Date? = nil,
        appMetadata: [String: AnyJSON] = [:],
        userMetadata: [String: AnyJSON] = [:],
        identities: [UserIdentity]? = nil,
        isAnonymous: Bool = false
    ) {
        self.id = id
        self.aud = aud
        self.role = role
        self.email = email
        self.phone = phone
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.confirmedAt = confirmedAt
        self.emailConfirmedAt = emailConfirmedAt
        self.phoneConfirmedAt = phoneConfirmedAt
        self.lastSignInAt = lastSignInAt
        self.appMetadata = appMetadata
        self.userMetadata = userMetadata
        self.identities = identities
        self.isAnonymous = isAnonymous
    }

    private enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case confirmedAt = "confirmed_at"
        case emailConfirmedAt = "email_confirmed_at"
        case phoneConfirmedAt = "phone_confirmed_at"
        case lastSignInAt = "last_sign_in_at"
        case confirmationSentAt = "confirmation_sent_at"
        case recoverySentAt = "recovery_sent_at"
        case emailChangeSentAt = "email_change_sent_at"
        case invitedAt = "invited_at"
        case newEmail = "new_email"
        case newPhone = "new_phone"
        case bannedUntil = "banned_until"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case isAnonymous = "is_anonymous"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(UUID.self, forKey: .id)
        aud = try c.decode(String.self, forKey: .aud)
        role = try c.decodeIfPresent(String.self, forKey: .role)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        phone = try c.decodeIfPresent(String.self, forKey: .phone)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
        confirmedAt = try c.decodeIfPresent(Date.self, forKey: .confirmedAt)
        emailConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .emailConfirmedAt)
        phoneConfirmedAt = try c.decodeIfPresent(Date.self, forKey: .phoneConfirmedAt)
        lastSignInAt = try c.decodeIfPresent(Date.self, forKey: .lastSignInAt)
        confirmationSentAt = try c.decodeIfPresent(Date.self, forKey: .confirmationSentAt)
        recoverySentAt = try c.decodeIfPresent(Date.self, forKey: .recoverySentAt)
        emailChangeSentAt = try c.decodeIfPresent(Date.self, forKey: .emailChangeSentAt)
        invitedAt = try c.decodeIfPresent(Date.self, forKey: .invitedAt)
        newEmail = try c.decodeIfPresent(String.self, forKey: .newEmail)
        newPhone = try c.decodeIfPresent(String.self, forKey: .newPhone)
        bannedUntil = try c.decodeIfPresent(Date.self, forKey: .bannedUntil)
        appMetadata = try c.decodeIfPresent([String: AnyJSON].self, forKey: .appMetadata) ?? [:]
        userMetadata = try c.decodeIfPresent([String: AnyJSON].self, forKey: .userMetadata) ?? [:]
        identities = try c.decodeIfPresent([UserIdentity].self, forKey: .identities)
        isAnonymous = try c.decodeIfPresent(Bool.self, forKey: .isAnonymous) ?? false
    }
}

/// One sign-in method linked to a user (phone, email, an OAuth provider).
public struct UserIdentity: Codable, Hashable, Sendable {
    /// The provider's identifier of the user (the phone number for `phone`).
    public var id: String
    /// The identity row's own identifier.
    public var identityId: UUID?
    /// The user the identity belongs to.
    public var userId: UUID
    /// What the provider reported (`sub`, `phone`, `email`, …).
    public var identityData: [String: AnyJSON]?
    /// `phone`, `email`, `google`, …
    public var provider: String
    /// When the identity was linked.
    public var createdAt: Date?
    /// When the identity was last used to sign in.
    public var lastSignInAt: Date?
    /// When the identity was last changed.
    public var updatedAt: Date?

    private enum CodingKeys: String, CodingKey {
        case id, provider
        case identityId = "identity_id"
        case userId = "user_id"
        case identityData = "identity_data"
        case createdAt = "created_at"
        case lastSignInAt = "last_sign_in_at"
        case updatedAt = "updated_at"
    }
}

/// The fields ``AuthClient/update(user:)`` changes; `nil` fields are left untouched
/// (they are not sent at all).
public struct UserAttributes: Codable, Hashable, Sendable {
    /// A new email address (GoTrue sends a confirmation).
    public var email: String?
    /// A new phone number (GoTrue sends a code).
    public var phone: String?
    /// A new password.
    public var password: String?
    /// The reauthentication nonce, required by GoTrue for password changes when
    /// "secure password change" is on.
    public var nonce: String?
    /// The code confirming an email change.
    public var emailChangeToken: String?
    /// Replaces keys of `user_metadata`.
    public var data: [String: AnyJSON]?

    /// Creates attributes.
    public init(
        email: String? = nil,
        phone: String? = nil,
        password: String? = nil,
        nonce: String? = nil,
        emailChangeToken: String? = nil,
        data: [String: AnyJSON]? = nil
    ) {
        self.email = email
        self.phone = phone
        self.password = password
        self.nonce = nonce
        self.emailChangeToken = emailChangeToken
        self.data = data
    }

    private enum CodingKeys: String, CodingKey {
        case email, phone, password, nonce, data
        case emailChangeToken = "email_change_token"
    }
}
