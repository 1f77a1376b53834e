import Foundation

/// A GoTrue user, decoded from its snake_case JSON.
///
/// Only `id`, `aud`, `created_at` and `updated_at` are required, as in supabase-swift;
/// everything else is optional because GoTrue omits null fields, and metadata default to
/// empty objects.
public struct User: Codable, Hashable, Sendable, Identifiable {
  public var id: UUID
  /// The audience, `authenticated`.
  public var aud: String
  /// The database role, `authenticated`.
  public var role: String?
  /// The email address (GoTrue sends `""` when there is none).
  public var email: String?
  /// The phone number, E.164 digits without the `+` (GoTrue sends `""` when none).
  public var phone: String?
  public var createdAt: Date
  public var updatedAt: Date
  public var confirmedAt: Date?
  public var emailConfirmedAt: Date?
  public var phoneConfirmedAt: Date?
  public var lastSignInAt: Date?
  public var confirmationSentAt: Date?
  public var recoverySentAt: Date?
  public var emailChangeSentAt: Date?
  public var invitedAt: Date?
  public var newEmail: String?
  public var newPhone: String?
  public var bannedUntil: Date?
  /// Server-controlled metadata (`provider`, `providers`, …).
  public var appMetadata: [String: AnyJSON]
  /// User-editable metadata.
  public var userMetadata: [String: AnyJSON]
  public var identities: [UserIdentity]?
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
  public var identityId: UUID?
  public var userId: UUID
  public var identityData: [String: AnyJSON]?
  /// `phone`, `email`, `google`, …
  public var provider: String
  public var createdAt: Date?
  public var lastSignInAt: Date?
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
  public var email: String?
  public var phone: String?
  public var password: String?
  /// The reauthentication nonce, required by GoTrue for password changes when
  /// "secure password change" is on.
  public var nonce: String?
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
