import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Why `/auth/v1` refused an email/password request; the server words each as GoTrue does.
public enum AuthRefusal: Error, Sendable, Equatable {
    case invalidEmail
    case weakPassword
    case userAlreadyExists
    case invalidCredentials
    case emailExists
    case phoneExists
    case userNotFound
    /// The refresh token's session was not used for ``AuthPolicy/refreshTokenInactivity``.
    case sessionExpired
    /// Changing the password, email or phone needs a recent sign-in or a `nonce`.
    case reauthenticationNeeded
    /// The `nonce` is wrong, used or expired.
    case reauthenticationNotValid
    /// A reauthentication code has nowhere to go: the account has no phone (and no mail is sent).
    case reauthenticationUnavailable
    case phoneNotConfirmed
    /// Password sign-in to an account whose email was never confirmed by its code.
    case emailNotConfirmed
    /// The operator demands a captcha and none, or an unsolved one, came (GoTrue's `captcha_failed`).
    case captchaFailed(String)
}

/// What signing up gave: a session at once (no mail: the address is taken as confirmed), or an
/// account waiting for the code mailed to its address.
public enum SignUpOutcome: Sendable, Hashable {
    case session(IssuedSession)
    case confirmationSent(AuthUser)
}

/// Email and password accounts, beside phone sign-in: GoTrue's `signup`,
/// `token?grant_type=password` and `PUT /user`.
///
/// Without mail, sign-up confirms at once (GoTrue's "autoconfirm") and email changes apply
/// directly; with it, both wait for a mailed code (`AuthService+EmailConfirmation.swift`). A
/// phone change is proven by an SMS code first (`AuthService+PhoneChange.swift`). A person who
/// signs up by email has no phone yet; their `users` row carries an empty phone until they add one.
extension AuthService {
    public func signUp(
        email text: String, password: String, metadataJSON: String = "{}", clientAddress: String? = nil, captchaToken: String? = nil
    ) async throws -> SignUpOutcome {
        let email = try Self.normalizedEmail(text)
        guard password.count >= policy.minimumPasswordLength else { throw AuthRefusal.weakPassword }
        try await codes.checkCaptcha(captchaToken, clientAddress: clientAddress)
        let hash = try await passwords.hash(password)
        let now = clock.now()
        let confirmed: SQLValue = confirmsEmail ? .null : SQLValue(now)
        do {
            let (outcome, mail): (SignUpOutcome, OutboundMessage?) = try await database.transaction { connection in
                if try await connection.first("SELECT 1 AS taken FROM auth_users WHERE email = \(email)") != nil {
                    throw AuthRefusal.userAlreadyExists
                }
                let id = UUID()
                guard
                    let row = try await connection.first(
                        """
                        INSERT INTO auth_users (id, email, encrypted_password, email_confirmed_at, last_sign_in_at, user_metadata, created_at, updated_at)
                        VALUES (\(SQLValue(id)), \(email), \(hash), \(confirmed), \(confirmed), \(metadataJSON), \(SQLValue(now)), \(SQLValue(now)))
                        RETURNING *
                        """)
                else { throw DomainError.internal("account was not created") }
                try await connection.query(
                    """
                    INSERT INTO users (id, phone, qr_code_id, created_at, updated_at)
                    VALUES (\(SQLValue(id)), '', \(SQLValue(UUID())), \(SQLValue(now)), \(SQLValue(now)))
                    """)
                let user = try AuthUser(row: row)
                guard confirmsEmail else {
                    return (.session(try await sessions.start(for: user, method: "password", isNewUser: true, now: now, in: connection)), nil)
                }
                let mail = try await emailCode(to: email, purpose: "signup", user: user.id, clientAddress: clientAddress, now: now, in: connection)
                return (.confirmationSent(user), mail)
            }
            if let mail { try await self.mail(mail) }
            return outcome
        } catch DatabaseError.statement(sqlState: "23505", _, _, _) {
            throw AuthRefusal.userAlreadyExists  // a concurrent sign-up won the race
        }
    }

    /// `PUT /user`: changes what is given; `metadata` keys replace earlier ones and a `null`
    /// value removes its key, as GoTrue merges `data`. A new phone goes through
    /// ``requestPhoneChange(user:phone:clientAddress:revealingTakenNumber:)`` instead: it must be proven by a code first.
    ///
    /// A new password ends every other session of the person (all of them when `session`, the
    /// caller's own, is `nil`), as GoTrue's `UpdatePassword` does. Whether the caller may make
    /// the change at all is ``Reauthentication/ensure(user:session:nonce:)``'s to say, first.
    public func updateUser(
        id: UserID, email: String?, password: String?, metadata: [String: Any]?,
        keepingSession session: UUID? = nil, clientAddress: String? = nil
    ) async throws -> AuthUser {
        var newEmail = try email.map(Self.normalizedEmail)
        // With mail, a new address is proven by its code before the account moves there.
        var pendingEmail: String?
        if confirmsEmail, let wanted = newEmail {
            let current = try await self.user(id: id)
            if current?.email != wanted { pendingEmail = wanted }
            newEmail = nil
        }
        if let password, password.count < policy.minimumPasswordLength { throw AuthRefusal.weakPassword }
        let hash: String? = if let password { try await passwords.hash(password) } else { nil }
        let now = clock.now()
        let mergeJSON = metadata.flatMap { try? JSONSerialization.data(withJSONObject: $0) }.map { String(decoding: $0, as: UTF8.self) }
        let user: AuthUser = try await database.transaction { [newEmail] connection in
            guard
                let current = try await connection.first(
                    SQL("SELECT * FROM auth_users WHERE id = $1", bindings: [SQLValue(id.rawValue)]) + connection.forUpdate)
            else { throw AuthRefusal.userNotFound }
            if let newEmail, try await connection.first("SELECT 1 AS taken FROM auth_users WHERE email = \(newEmail) AND id <> \(SQLValue(id.rawValue))") != nil
            {
                throw AuthRefusal.emailExists
            }
            var metadataText = current.optionalString("user_metadata") ?? "{}"
            if let mergeJSON { metadataText = Self.merge(metadataText, with: mergeJSON) }
            guard
                let row = try await connection.first(
                    """
                    UPDATE auth_users SET
                        email = coalesce(CAST(\(newEmail.map(SQLValue.text) ?? .null) AS text), email),
                        email_confirmed_at = \(newEmail == nil ? SQL.raw("email_confirmed_at") : ("\(SQLValue(now))" as SQL)),
                        encrypted_password = coalesce(CAST(\(hash.map(SQLValue.text) ?? .null) AS text), encrypted_password),
                        user_metadata = \(metadataText), updated_at = \(SQLValue(now))
                    WHERE id = \(SQLValue(id.rawValue)) RETURNING *
                    """)
            else { throw AuthRefusal.userNotFound }
            if hash != nil { try await sessions.endOthers(of: id, keeping: session, in: connection) }
            return try AuthUser(row: row)
        }
        if password != nil { sessions.forgetActive() }
        if let pendingEmail { return try await requestEmailChange(user: id, to: pendingEmail, clientAddress: clientAddress) }
        return user
    }

    /// Lower-cased, trimmed, and shaped like an address (GoTrue checks no more than that).
    public static func normalizedEmail(_ text: String) throws(AuthRefusal) -> String {
        let email = text.trimmingCharacters(in: .whitespaces).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 255, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
        else { throw .invalidEmail }
        return email
    }

    static func merge(_ current: String, with update: String) -> String {
        var merged = (try? JSONSerialization.jsonObject(with: Data(current.utf8))) as? [String: Any] ?? [:]
        let changes = (try? JSONSerialization.jsonObject(with: Data(update.utf8))) as? [String: Any] ?? [:]
        for (key, value) in changes {
            if value is NSNull { merged[key] = nil } else { merged[key] = value }
        }
        return (try? JSONSerialization.data(withJSONObject: merged, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
