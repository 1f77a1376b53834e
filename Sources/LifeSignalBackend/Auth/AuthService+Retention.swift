import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Sign-in bookkeeping that has served its purpose, deleted by the sweep (``CheckInSweep``)
/// a batch at a time. Strangers create most of these rows — a password guess at any email, a
/// code asked for any number — so without this the tables grow for as long as anyone keeps
/// trying, and every lookup in them with it.
///
/// Each rule deletes only what no check can read again:
/// - a throttle count whose window ended (the next attempt starts a new window anyway);
/// - a one-time code that expired and may be replaced (``OneTimeCode/resendInterval`` passed);
/// - a session not refreshed for ``AuthPolicy/refreshTokenInactivity``, which is refused
///   already, and its refresh tokens with it;
/// - a revoked refresh token issued more than a day ago, as GoTrue's cleanup does. A revoked
///   token presented again revokes its whole session (reuse detection); once deleted it is
///   refused as unknown instead, which ends nothing but the attempt.
extension AuthService {
    public struct Retention: Sendable, Hashable, Codable {
        public var throttleCounts = 0
        public var oneTimeCodes = 0
        public var sessions = 0
        public var refreshTokens = 0

        public init() {}
    }

    static let revokedRefreshTokenRetention: TimeInterval = 24 * 60 * 60

    /// Deletes what the rules above allow, `batch` rows per statement and transaction, so a
    /// large backlog never holds the writer for long.
    public func pruneExpired(now: Date, batch: Int) async throws -> Retention {
        var pruned = Retention()
        pruned.throttleCounts += try await deleteAll(
            batch: batch,
            """
            DELETE FROM auth_password_failures WHERE identifier IN (SELECT identifier FROM auth_password_failures
                WHERE window_started_at < \(SQLValue(now - PasswordAttempts.window)) LIMIT \(batch)) RETURNING identifier
            """)
        // Sending counts (`SendCounter`, the code caps' too): no window is longer than a day.
        pruned.throttleCounts += try await deleteAll(
            batch: batch,
            """
            DELETE FROM lifesignal_send_counts WHERE key IN (SELECT key FROM lifesignal_send_counts
                WHERE window_started_at < \(SQLValue(now - SendingCaps.day)) LIMIT \(batch)) RETURNING key
            """)
        pruned.oneTimeCodes += try await deleteAll(
            batch: batch,
            """
            DELETE FROM auth_email_codes WHERE email IN (SELECT email FROM auth_email_codes
                WHERE expires_at < \(SQLValue(now)) AND created_at < \(SQLValue(now - OneTimeCode.resendInterval)) LIMIT \(batch))
            RETURNING email
            """)
        pruned.oneTimeCodes += try await deleteAll(
            batch: batch,
            """
            DELETE FROM auth_one_time_codes WHERE phone IN (SELECT phone FROM auth_one_time_codes
                WHERE expires_at < \(SQLValue(now)) AND created_at < \(SQLValue(now - OneTimeCode.resendInterval)) LIMIT \(batch))
            RETURNING phone
            """)
        pruned.refreshTokens += try await deleteAll(
            batch: batch,
            """
            DELETE FROM auth_refresh_tokens WHERE token_hash IN (SELECT token_hash FROM auth_refresh_tokens
                WHERE revoked = \(true) AND created_at < \(SQLValue(now - Self.revokedRefreshTokenRetention)) LIMIT \(batch))
            RETURNING token_hash
            """)
        pruned.sessions += try await deleteAll(
            batch: batch,
            """
            DELETE FROM auth_sessions WHERE id IN (SELECT id FROM auth_sessions
                WHERE COALESCE(refreshed_at, created_at) < \(SQLValue(now - policy.refreshTokenInactivity)) LIMIT \(batch))
            RETURNING id
            """)
        return pruned
    }

    private func deleteAll(batch: Int, _ statement: SQL) async throws -> Int {
        var total = 0
        var deleted = batch
        while deleted == batch {
            deleted = try await database.transaction { try await $0.query(statement).count }
            total += deleted
        }
        return total
    }
}
