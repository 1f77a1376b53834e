import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Moving an account to a new phone number, proven by a code sent to that number (GoTrue's
/// `phone_change`): `PUT /user {"phone"}` then `POST /verify {"type": "phone_change"}`.
///
/// The number is the account's sign-in identity and where its codes go, so it never changes
/// on the word of a session alone: a stolen session must not be able to move the account to
/// the thief's phone.
extension AuthService {
    static let phoneChangeMigration = Migration(
        version: 110, name: "phone change codes",
        statements: [
            "ALTER TABLE auth_one_time_codes ADD COLUMN purpose text NOT NULL DEFAULT 'sms'",
            "ALTER TABLE auth_one_time_codes ADD COLUMN user_id uuid REFERENCES auth_users(id) ON DELETE CASCADE",
        ])

    /// Sends a code to `phone` for `user` to confirm the move. Nothing changes yet. A number
    /// another account signs in with is refused at once (``AuthRefusal/phoneExists``) when
    /// `revealingTakenNumber`; otherwise the code is sent all the same and the refusal comes
    /// when it returns (``verifyPhoneChange(phone:code:)``), so only whoever holds that phone
    /// learns it has an account — what the server does over HTTP. The code counts against the
    /// same caps as a sign-in code, `clientAddress` included.
    public func requestPhoneChange(
        user: UserID, phone text: String, clientAddress: String? = nil,
        revealingTakenNumber: Bool = true
    ) async throws {
        let phone = try PhoneNumber(text.hasPrefix("+") ? text : "+" + text)
        let now = clock.now()
        let code: OneTimeCode? = try await database.transaction { connection in
            guard let current = try await connection.first("SELECT phone FROM auth_users WHERE id = \(SQLValue(user.rawValue))")
            else { throw AuthRefusal.userNotFound }
            // Already this account's number: nothing to prove, and no SMS to pay for.
            if current.optionalString("phone") == phone.digits { return nil }
            if revealingTakenNumber,
                try await connection.first("SELECT 1 AS taken FROM auth_users WHERE phone = \(phone.digits) AND id <> \(SQLValue(user.rawValue))") != nil
            {
                throw AuthRefusal.phoneExists
            }
            return try await codes.issue(to: phone, purpose: "phone_change", user: user, clientAddress: clientAddress, now: now, in: connection)
        }
        if let code { try await codes.deliver(code, to: phone) }
    }

    /// Checks the code sent to `phone` and moves the account that asked for it there; returns
    /// a fresh session, as GoTrue does. Wrong codes count against the same limit as sign-in.
    public func verifyPhoneChange(phone phoneText: String, code codeText: String) async throws -> IssuedSession {
        let phone = try PhoneNumber(phoneText.hasPrefix("+") ? phoneText : "+" + phoneText)
        let code = try OneTimeCode(codeText)
        let now = clock.now()
        let outcome: SignInCodes.Outcome = try await database.transaction { connection in
            let check = try await codes.consume(phone: phone, code: code, purpose: "phone_change", now: now, in: connection)
            guard case .accepted(let row) = check, let userID = row.optionalUUID("user_id") else { return check }
            return try await movePhone(of: userID, to: phone, now: now, in: connection)
        }
        return try outcome.session()
    }

    /// Firebase's phone credential: a code sent to `phone` for sign-in (``requestCode(phone:)``,
    /// which is all Identity Toolkit's `sendVerificationCode` knows) proves the number, and the
    /// signed-in `user` presenting it (`signInWithPhoneNumber` with an `idToken`) names the
    /// account to move there. Same refusals and fresh session as ``verifyPhoneChange(phone:code:)``.
    public func verifyPhoneChange(user: UserID, phone phoneText: String, code codeText: String) async throws -> IssuedSession {
        let phone = try PhoneNumber(phoneText.hasPrefix("+") ? phoneText : "+" + phoneText)
        let code = try OneTimeCode(codeText)
        let now = clock.now()
        let outcome: SignInCodes.Outcome = try await database.transaction { connection in
            let check = try await codes.consume(phone: phone, code: code, purpose: "sms", now: now, in: connection)
            guard case .accepted = check else { return check }
            return try await movePhone(of: user.rawValue, to: phone, now: now, in: connection)
        }
        return try outcome.session()
    }

    /// Moves account `userID` to `phone` (a proven number) and issues a fresh session; a
    /// number another account holds is refused, rolling the code's use back with it.
    private func movePhone(of userID: UUID, to phone: PhoneNumber, now: Date, in connection: any SQLConnection) async throws -> SignInCodes.Outcome {
        if try await connection.first("SELECT 1 AS taken FROM auth_users WHERE phone = \(phone.digits) AND id <> \(SQLValue(userID))") != nil {
            throw AuthRefusal.phoneExists
        }
        guard
            let updated = try await connection.first(
                """
                UPDATE auth_users SET phone = \(phone.digits), phone_confirmed_at = \(SQLValue(now)), updated_at = \(SQLValue(now))
                WHERE id = \(SQLValue(userID)) RETURNING *
                """)
        else { throw AuthRefusal.userNotFound }
        try await connection.query("UPDATE users SET phone = \(phone.e164), updated_at = \(SQLValue(now)) WHERE id = \(SQLValue(userID))")
        return .issued(try await sessions.start(for: try AuthUser(row: updated), isNewUser: false, now: now, in: connection))
    }
}
