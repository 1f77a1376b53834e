import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// What must be shown before a session changes how its account signs in (password, email,
/// phone): a sign-in within ``AuthPolicy/reauthenticationWindow``, or a reauthentication code
/// (GoTrue's `GET /reauthenticate`, then `PUT /user {"nonce"}`).
///
/// Without it, an access token taken from a device — good for up to an hour — could set a new
/// password, end every other session and keep the account for good.
///
/// The code goes by SMS to the account's confirmed phone. GoTrue mails it when the account has
/// an email; this server sends no mail, so an account with only an email proves itself by
/// signing in with its password again (a fresh session is recent). Codes share
/// `auth_one_time_codes` with sign-in codes (purpose `reauthentication`), and so their
/// lifetime, wrong-guess limit and the caps on sending.
///
/// Authentication's reauthentication part: it asks the codes part for a code and reads the
/// sessions table, and nothing else.
public struct Reauthentication: Sendable {
    let database: any Database
    let clock: BackendClock
    let codes: SignInCodes
    let policy: AuthPolicy

    /// Sends a reauthentication code to `user`'s confirmed phone.
    public func request(user: UserID, clientAddress: String? = nil) async throws {
        guard let row = try await database.query("SELECT phone, phone_confirmed_at FROM auth_users WHERE id = \(SQLValue(user.rawValue))").first
        else { throw AuthRefusal.userNotFound }
        guard let digits = row.optionalString("phone"), !digits.isEmpty, let phone = try? PhoneNumber("+" + digits) else {
            throw AuthRefusal.reauthenticationUnavailable
        }
        guard row.optionalDate("phone_confirmed_at") != nil else { throw AuthRefusal.phoneNotConfirmed }
        try await codes.send(to: phone, purpose: "reauthentication", user: user, clientAddress: clientAddress)
    }

    /// Passes when `session` (the caller's, from its token) began within the window, or when
    /// `nonce` is the live reauthentication code of `user`, which it uses up. Otherwise throws
    /// ``AuthRefusal/reauthenticationNeeded`` (no nonce) or
    /// ``AuthRefusal/reauthenticationNotValid`` (a wrong, used or expired one).
    ///
    /// The nonce is checked in a transaction of its own, committed before the change it
    /// allows, so a wrong guess is counted even though the request then fails.
    public func ensure(user: UserID, session: UUID?, nonce: String?) async throws {
        let now = clock.now()
        if let session,
            let row = try await database.query(
                "SELECT created_at FROM auth_sessions WHERE id = \(SQLValue(session)) AND user_id = \(SQLValue(user.rawValue))"
            ).first,
            try now.timeIntervalSince(row.date("created_at")) <= policy.reauthenticationWindow
        {
            return
        }
        guard let nonce, !nonce.isEmpty else { throw AuthRefusal.reauthenticationNeeded }
        guard let code = try? OneTimeCode(nonce),
            let digits = try await database.query("SELECT phone FROM auth_users WHERE id = \(SQLValue(user.rawValue))").first?.optionalString("phone"),
            let phone = try? PhoneNumber("+" + digits)
        else { throw AuthRefusal.reauthenticationNotValid }
        let outcome = try await database.transaction { connection in
            try await codes.consume(phone: phone, code: code, purpose: "reauthentication", now: now, in: connection)
        }
        guard case .accepted(let row) = outcome, row.optionalUUID("user_id") == user.rawValue else {
            throw AuthRefusal.reauthenticationNotValid
        }
    }
}
