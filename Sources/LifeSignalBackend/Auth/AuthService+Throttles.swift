import Foundation
import LifeSignalDomain

/// Limits on guessing and on sending, kept in the database so that every server process on
/// one PostgreSQL applies the same count.
///
/// - **Passwords:** after ``passwordFailureLimit`` wrong passwords for one email or phone within
///   ``passwordFailureWindow``, that identifier is refused until the window ends. The
///   count is kept whether or not the account exists, so a refusal does not tell which accounts
///   exist. A correct password clears it. Phone sign-in by code is not affected, so a stranger
///   who trips the limit cannot lock a person out of their account.
/// - **Codes:** a new code for a phone is not sent while one sent less than
///   ``OneTimeCode/resendInterval`` ago is still pending (GoTrue's `sms_max_frequency`). A code
///   that was used is gone, so signing in again at once works; a code burned by wrong guesses
///   stays pending, so the guesser cannot ask for a fresh code and guess again at once.
///   Numbers with fixed test codes are not limited: their code is known, so there is
///   nothing to guess, and they are the operator's own numbers for testing.
extension AuthService {
    public static let passwordFailureLimit = 10
    public static let passwordFailureWindow: TimeInterval = 15 * 60

    static let throttleMigration = Migration(
        version: 140, name: "sign-in throttles",
        statements: [
            """
            CREATE TABLE auth_password_failures (
                identifier text PRIMARY KEY,
                failures integer NOT NULL,
                window_started_at timestamptz NOT NULL)
            """,
        ],
        postgresOnly: ["ALTER TABLE auth_password_failures ENABLE ROW LEVEL SECURITY"])

    /// How long `identifier` must wait before trying a password again, in whole seconds (as
    /// `Retry-After` words it), or `nil` if it may try now.
    func passwordWait(for identifier: String, now: Date) async throws -> TimeInterval? {
        guard let row = try await database.query(
            "SELECT failures, window_started_at FROM auth_password_failures WHERE identifier = \(identifier)").first
        else { return nil }
        let windowEnd = try row.date("window_started_at") + Self.passwordFailureWindow
        guard try row.int("failures") >= Self.passwordFailureLimit, windowEnd > now else { return nil }
        return windowEnd.timeIntervalSince(now).rounded(.up)
    }

    /// Counts a wrong password for `identifier`, starting a new window when the last one ended.
    func recordPasswordFailure(for identifier: String, now: Date) async throws {
        let windowStart = SQLValue(now - Self.passwordFailureWindow)
        try await database.query("""
            INSERT INTO auth_password_failures (identifier, failures, window_started_at)
            VALUES (\(identifier), 1, \(SQLValue(now)))
            ON CONFLICT (identifier) DO UPDATE SET
                failures = CASE WHEN auth_password_failures.window_started_at <= \(windowStart) THEN 1
                                ELSE auth_password_failures.failures + 1 END,
                window_started_at = CASE WHEN auth_password_failures.window_started_at <= \(windowStart) THEN excluded.window_started_at
                                         ELSE auth_password_failures.window_started_at END
            """)
    }

    func clearPasswordFailures(for identifier: String, in connection: any SQLConnection) async throws {
        try await connection.query("DELETE FROM auth_password_failures WHERE identifier = \(identifier)")
    }

    /// Refuses to replace a code for `phone` sent less than ``OneTimeCode/resendInterval`` ago.
    func ensureCodeMayBeSent(to phone: PhoneNumber, now: Date, in connection: any SQLConnection) async throws {
        guard testOTPs.codes[phone] == nil,
              let pending = try await connection.first("SELECT created_at FROM auth_one_time_codes WHERE phone = \(phone.digits)")
        else { return }
        let allowedAt = try pending.date("created_at") + OneTimeCode.resendInterval
        if allowedAt > now { throw DomainError.rateLimited(retryAfter: allowedAt.timeIntervalSince(now).rounded(.up)) }
    }
}
