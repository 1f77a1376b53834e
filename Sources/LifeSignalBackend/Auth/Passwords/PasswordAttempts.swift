import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Authentication's password throttle, kept in the database so that every server process on
/// one PostgreSQL applies the same count: after ``limit`` attempts for one email or phone
/// within ``window`` that were not followed by the right password, that identifier is refused
/// until the window ends. Attempts are counted before the hash is checked. The count is kept
/// whether or not the account exists, so a refusal does not tell which accounts exist. A
/// correct password clears it. Phone sign-in by code is not affected, so a stranger who trips
/// the limit cannot lock a person out of their account.
public struct PasswordAttempts: Sendable {
    let database: any Database

    public static let limit = 10
    public static let window: TimeInterval = 15 * 60

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
    /// is past ``limit``, or `nil` when the attempt may go ahead.
    ///
    /// Counting first is what makes the limit hold under parallel guesses: the database
    /// serialises the increments, so of N simultaneous guesses at most the limit see a count
    /// within it, and only those reach the hash. A correct password clears the count
    /// afterwards; a wrong one is already counted. Refused attempts do not lengthen the window
    /// and the count stops one past the limit.
    ///
    /// `limit` and `window` are the password's by default; check-in PINs, shorter and so easier
    /// to guess, count under keys of their own with a tighter limit (``CheckInPINs``).
    func reserve(for identifier: String, now: Date, limit: Int = Self.limit, window: TimeInterval = Self.window) async throws -> TimeInterval? {
        let windowStart = SQLValue(now - window)
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
        let windowEnd = try row.date("window_started_at") + window
        return max(1, windowEnd.timeIntervalSince(now).rounded(.up))
    }

    /// Gives back an attempt that was counted but never checked (the hashing pool refused it
    /// or the request was cancelled while waiting), so load alone does not lock anyone out.
    func refund(for identifier: String) async throws {
        try await database.query(
            """
            UPDATE auth_password_failures SET failures = failures - 1 WHERE identifier = \(identifier) AND failures > 0
            """)
    }

    func clear(for identifier: String, in connection: any SQLConnection) async throws {
        try await connection.query("DELETE FROM auth_password_failures WHERE identifier = \(identifier)")
    }
}
