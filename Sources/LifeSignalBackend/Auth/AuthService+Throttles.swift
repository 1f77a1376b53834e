import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Limits on guessing and on sending, kept in the database so that every server process on
/// one PostgreSQL applies the same count.
///
/// - **Passwords:** after ``passwordFailureLimit`` attempts for one email or phone within
///   ``passwordFailureWindow`` that were not followed by the right password, that identifier
///   is refused until the window ends. Attempts are counted before the hash is checked. The
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
            """
        ],
        postgresOnly: ["ALTER TABLE auth_password_failures ENABLE ROW LEVEL SECURITY"])

    /// Counts an attempt at `identifier`'s password *before* it is checked, in one statement,
    /// and returns how long to wait (whole seconds, as `Retry-After` words it) when the count
    /// is past ``passwordFailureLimit``, or `nil` when the attempt may go ahead.
    ///
    /// Counting first is what makes the limit hold under parallel guesses: the database
    /// serialises the increments, so of N simultaneous guesses at most the limit see a count
    /// within it, and only those reach the hash. A correct password clears the count
    /// afterwards; a wrong one is already counted. Refused attempts do not lengthen the window
    /// and the count stops one past the limit.
    func reservePasswordAttempt(for identifier: String, now: Date) async throws -> TimeInterval? {
        let windowStart = SQLValue(now - Self.passwordFailureWindow)
        let limit = Self.passwordFailureLimit
        guard
            let row = try await database.query(
                """
                INSERT INTO auth_password_failures (identifier, failures, window_started_at)
                VALUES (\(identifier), 1, \(SQLValue(now)))
                ON CONFLICT (identifier) DO UPDATE SET
                    failures = CASE WHEN auth_password_failures.window_started_at <= \(windowStart) THEN 1
                                    WHEN auth_password_failures.failures > \(limit) THEN auth_password_failures.failures
                                    ELSE auth_password_failures.failures + 1 END,
                    window_started_at = CASE WHEN auth_password_failures.window_started_at <= \(windowStart) THEN excluded.window_started_at
                                             ELSE auth_password_failures.window_started_at END
                RETURNING failures, window_started_at
                """
            ).first
        else { throw DomainError.internal("the password attempt was not counted") }
        guard try row.int("failures") > limit else { return nil }
        let windowEnd = try row.date("window_started_at") + Self.passwordFailureWindow
        return max(1, windowEnd.timeIntervalSince(now).rounded(.up))
    }

    /// Gives back an attempt that was counted but never checked (the hashing pool refused it
    /// or the request was cancelled while waiting), so load alone does not lock anyone out.
    func refundPasswordAttempt(for identifier: String) async throws {
        try await database.query(
            """
            UPDATE auth_password_failures SET failures = failures - 1 WHERE identifier = \(identifier) AND failures > 0
            """)
    }

    func clearPasswordFailures(for identifier: String, in connection: any SQLConnection) async throws {
        try await connection.query("DELETE FROM auth_password_failures WHERE identifier = \(identifier)")
    }

    /// Refuses to replace a code for `phone` sent less than ``OneTimeCode/resendInterval`` ago,
    /// then counts the code against the caps on codes per number and per client address
    /// (`AuthService+SendingCaps.swift`). Runs inside the transaction that stores the code, so
    /// a refusal rolls every count back.
    func ensureCodeMayBeSent(to phone: PhoneNumber, from clientAddress: String?, now: Date, in connection: any SQLConnection) async throws {
        guard testOTPs.codes[phone] == nil else { return }
        if let pending = try await connection.first("SELECT created_at FROM auth_one_time_codes WHERE phone = \(phone.digits)") {
            let allowedAt = try pending.date("created_at") + OneTimeCode.resendInterval
            if allowedAt > now { throw DomainError.rateLimited(retryAfter: allowedAt.timeIntervalSince(now).rounded(.up)) }
        }
        try await countCodeSent(to: phone, from: clientAddress, now: now, in: connection)
    }
}
