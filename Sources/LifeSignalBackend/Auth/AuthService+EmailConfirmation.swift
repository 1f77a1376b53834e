import Crypto
import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Email addresses proven before anything is sent to them (issue 31, GoTrue's email
/// confirmation and secure email change), whenever the server can send mail.
///
/// - **Sign-up** makes the account unconfirmed and mails a 6-digit code (`signup`); the
///   answer is the user without a session, a password sign-in is refused
///   ``AuthRefusal/emailNotConfirmed`` until `POST /verify {"type": "signup", "email",
///   "token"}` comes back with the code, which confirms the address and opens a session.
/// - **Changing the email** (`PUT /user {"email"}`) mails a code (`email_change`) to the new
///   address and tells the old one; the account keeps its old address until
///   `POST /verify {"type": "email_change", "email": <new>, "token"}`.
///
/// Until confirmed an address receives only its own code: the ledger queues email only to
/// `email_confirmed_at` addresses. Codes are stored as keyed hashes, live
/// ``OneTimeCode/lifetime``, burn after ``OneTimeCode/maximumAttempts`` wrong guesses, and are
/// sent at most once a ``OneTimeCode/resendInterval`` to an address, within the same daily
/// counts as any other mail to it (``SendingCaps``) and the code caps per client address.
/// Without mail (no SMTP), sign-up confirms at once and changes apply directly, as before.
extension AuthService {
    /// Whether email addresses are confirmed by a mailed code: the server has a mail sender.
    public var confirmsEmail: Bool { email != nil }

    /// Stores a fresh `purpose` code for `address` (replacing an earlier one) inside the
    /// caller's transaction, within the caps, and returns the mail to send after the commit.
    func emailCode(
        to address: String, purpose: String, user: UserID, clientAddress: String?, now: Date, in connection: any SQLConnection
    ) async throws -> OutboundMessage {
        if let pending = try await connection.first("SELECT created_at FROM auth_email_codes WHERE email = \(address)") {
            let allowedAt = try pending.date("created_at") + OneTimeCode.resendInterval
            if allowedAt > now { throw DomainError.rateLimited(retryAfter: allowedAt.timeIntervalSince(now).rounded(.up)) }
        }
        try await reserveMail(to: address, clientAddress: clientAddress, now: now, in: connection)
        var generator = SystemRandomNumberGenerator()
        let code = OneTimeCode.random(using: &generator)
        try await connection.query(
            """
            INSERT INTO auth_email_codes (email, code_hash, attempts, purpose, user_id, expires_at, created_at)
            VALUES (\(address), \(emailCodeHash(address, code)), 0, \(purpose), \(SQLValue(user.rawValue)), \(SQLValue(now + OneTimeCode.lifetime)), \(SQLValue(now)))
            ON CONFLICT (email) DO UPDATE SET code_hash = excluded.code_hash, attempts = 0, purpose = excluded.purpose,
                user_id = excluded.user_id, expires_at = excluded.expires_at, created_at = excluded.created_at
            """)
        let minutes = Int(OneTimeCode.lifetime / 60)
        let (title, body) =
            purpose == "signup"
            ? ("Confirm your email", "Your LifeSignal confirmation code is \(code.value). It works for \(minutes) minutes.")
            : ("Confirm your new email", "Your code to move your LifeSignal account to this address is \(code.value). It works for \(minutes) minutes.")
        return OutboundMessage(
            id: UUID(), channel: .email, address: address, recipient: user, kind: .system, title: title,
            body: body + " If you did not ask for it, ignore this message.")
    }

    /// Counts one mail to `address` against its daily count, the client address's hourly code
    /// count and the server's email budget, or refuses it.
    func reserveMail(to address: String, clientAddress: String?, now: Date, in connection: any SQLConnection) async throws {
        try await SendCounter.spendOrRefuse(.email, limit: rules.caps.emailPerDay, now: now, in: connection)
        try await SendCounter.require("dest:email:" + address, limit: rules.caps.perDestinationPerDay, window: SendingCaps.day, now: now, in: connection)
        if let clientAddress {
            try await SendCounter.require(
                "email-codes:" + clientAddress, limit: limits.codesPerAddressPerHour, window: SignInLimits.codeAddressWindow, now: now,
                in: connection)
        }
    }

    /// Mails what ``emailCode(to:purpose:user:clientAddress:now:in:)`` made. A mail the server
    /// could not hand over is an error the client may retry after the resend interval; the code
    /// is dropped so it does not hold that retry off.
    func mail(_ message: OutboundMessage) async throws {
        guard let email else { return }
        switch await email.send(message) {
        case .sent: return
        case .transient, .permanent, .addressGone:
            _ = try? await database.query("DELETE FROM auth_email_codes WHERE email = \(message.address)")
            throw DomainError.internal("The confirmation email could not be sent; try again shortly")
        }
    }

    /// Checks `code` for `address` and `purpose`: the account it was sent for, or why not. A
    /// wrong guess is counted, and so is an expired code's removal, when the caller's
    /// transaction commits (it returns the failure rather than throwing it).
    func consumeEmailCode(
        _ address: String, code: OneTimeCode, purpose: String, now: Date, in connection: any SQLConnection
    ) async throws -> Result<UUID, DomainError> {
        guard
            let row = try await connection.first(
                "SELECT code_hash, attempts, expires_at, user_id FROM auth_email_codes WHERE email = \(address) AND purpose = \(purpose)"
                    + connection.forUpdate)
        else { return .failure(.otpExpired) }
        if try row.date("expires_at") <= now {
            try await connection.query("DELETE FROM auth_email_codes WHERE email = \(address)")
            return .failure(.otpExpired)
        }
        let attempts = try row.int("attempts")
        if attempts >= OneTimeCode.maximumAttempts { return .failure(.tooManyAttempts) }
        guard Self.constantTimeEqual(try row.string("code_hash"), emailCodeHash(address, code)) else {
            try await connection.query("UPDATE auth_email_codes SET attempts = attempts + 1 WHERE email = \(address)")
            return .failure(attempts + 1 >= OneTimeCode.maximumAttempts ? .tooManyAttempts : .invalidOTP)
        }
        try await connection.query("DELETE FROM auth_email_codes WHERE email = \(address)")
        return .success(try row.uuid("user_id"))
    }

    /// `POST /resend {"type": "signup", "email"}`: a fresh code for an address not proven yet —
    /// one that signed up before the server could mail, or whose code went astray. Answers the
    /// same whether or not an account has the address (nothing is mailed when none does or it
    /// is proven already), so it tells no one which addresses have accounts.
    public func resendSignUpCode(email text: String, clientAddress: String? = nil, captchaToken: String? = nil) async throws {
        guard confirmsEmail else { return }
        let address = try Self.normalizedEmail(text)
        try await codes.checkCaptcha(captchaToken, clientAddress: clientAddress)
        let now = clock.now()
        let mail: OutboundMessage? = try await database.transaction { connection in
            guard
                let row = try await connection.first(
                    "SELECT id FROM auth_users WHERE email = \(address) AND email_verified_at IS NULL" + connection.forUpdate)
            else { return nil }
            let user = UserID(try row.uuid("id"))
            return try await emailCode(to: address, purpose: "signup", user: user, clientAddress: clientAddress, now: now, in: connection)
        }
        if let mail { try await self.mail(mail) }
    }

    /// `POST /verify {"type": "signup" | "email", "email", "token"}`: confirms the address and
    /// opens a session.
    public func verifySignUp(email text: String, code codeText: String) async throws -> IssuedSession {
        let address = try Self.normalizedEmail(text)
        let code = try OneTimeCode(codeText)
        let now = clock.now()
        let outcome: Result<IssuedSession, DomainError> = try await database.transaction { connection in
            let id: UUID
            switch try await consumeEmailCode(address, code: code, purpose: "signup", now: now, in: connection) {
            case .success(let found): id = found
            case .failure(let error): return .failure(error)
            }
            guard
                let row = try await connection.first(
                    """
                    UPDATE auth_users SET email_confirmed_at = \(SQLValue(now)), email_verified_at = \(SQLValue(now)),
                        last_sign_in_at = \(SQLValue(now)), updated_at = \(SQLValue(now))
                    WHERE id = \(SQLValue(id)) AND email = \(address) RETURNING *
                    """)
            else { return .failure(.otpExpired) }
            return .success(try await sessions.start(for: try AuthUser(row: row), method: "otp", isNewUser: true, now: now, in: connection))
        }
        return try outcome.get()
    }

    /// `PUT /user {"email"}` with mail: a code to the new address, a notice to the old one.
    /// Nothing changes until ``verifyEmailChange(email:code:)``.
    func requestEmailChange(user: UserID, to address: String, clientAddress: String?) async throws -> AuthUser {
        let now = clock.now()
        let (user, mails): (AuthUser, [OutboundMessage]) = try await database.transaction { connection in
            guard let current = try await connection.first("SELECT * FROM auth_users WHERE id = \(SQLValue(user.rawValue))" + connection.forUpdate)
            else { throw AuthRefusal.userNotFound }
            if try await connection.first("SELECT 1 AS taken FROM auth_users WHERE email = \(address) AND id <> \(SQLValue(user.rawValue))") != nil {
                throw AuthRefusal.emailExists
            }
            var mails = [try await emailCode(to: address, purpose: "email_change", user: user, clientAddress: clientAddress, now: now, in: connection)]
            if let old = current.optionalString("email"), !old.isEmpty, current.optionalDate("email_verified_at") != nil {
                try await reserveMail(to: old, clientAddress: nil, now: now, in: connection)
                mails.append(
                    OutboundMessage(
                        id: UUID(), channel: .email, address: old, recipient: user, kind: .system, title: "Your email is changing",
                        body: """
                            Someone signed in to your LifeSignal account asked to move it to \(Self.masked(address)). \
                            It moves only when the code sent there comes back. If this was not you, sign in and change your password.
                            """))
            }
            guard
                let row = try await connection.first(
                    """
                    UPDATE auth_users SET email_change = \(address), updated_at = \(SQLValue(now)) WHERE id = \(SQLValue(user.rawValue)) RETURNING *
                    """)
            else { throw AuthRefusal.userNotFound }
            return (try AuthUser(row: row), mails)
        }
        try await mail(mails[0])
        for notice in mails.dropFirst() { _ = await email?.send(notice) }
        return user
    }

    /// `POST /verify {"type": "email_change", "email": <new>, "token"}`: moves the account that
    /// asked to the proven address and opens a fresh session.
    public func verifyEmailChange(email text: String, code codeText: String) async throws -> IssuedSession {
        let address = try Self.normalizedEmail(text)
        let code = try OneTimeCode(codeText)
        let now = clock.now()
        let outcome: Result<IssuedSession, DomainError> = try await database.transaction { connection in
            let id: UUID
            switch try await consumeEmailCode(address, code: code, purpose: "email_change", now: now, in: connection) {
            case .success(let found): id = found
            case .failure(let error): return .failure(error)
            }
            if try await connection.first("SELECT 1 AS taken FROM auth_users WHERE email = \(address) AND id <> \(SQLValue(id))") != nil {
                throw AuthRefusal.emailExists
            }
            guard
                let row = try await connection.first(
                    """
                    UPDATE auth_users SET email = \(address), email_change = NULL, email_confirmed_at = \(SQLValue(now)),
                        email_verified_at = \(SQLValue(now)), updated_at = \(SQLValue(now))
                    WHERE id = \(SQLValue(id)) AND email_change = \(address) RETURNING *
                    """)
            else { return .failure(.otpExpired) }
            return .success(try await sessions.start(for: try AuthUser(row: row), method: "otp", isNewUser: false, now: now, in: connection))
        }
        return try outcome.get()
    }

    func emailCodeHash(_ address: String, _ code: OneTimeCode) -> String {
        codes.mac("email:\(address):\(code.value)")
    }

    /// "n***@example.com": enough for the owner to recognise, not a whole address to a stranger.
    static func masked(_ address: String) -> String {
        guard let at = address.firstIndex(of: "@") else { return "another address" }
        return String(address.prefix(1)) + "***" + String(address[at...])
    }
}
