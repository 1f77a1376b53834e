import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Counts of messages sent, by key (`dest:sms:+15550001111`, `sender:phone:+1…`,
/// `budget:sms`, `rounds:<responder>:<person>`…), each in a fixed window that opens with its
/// first message; the sign-in code caps count here too, under `code:` keys.
///
/// **Outlives accounts.** A key names an address or an identity, never a row that cascades
/// away, so deleting an account and signing up again restarts no count.
///
/// **Serialised on both engines.** A reservation is one `INSERT … ON CONFLICT DO UPDATE …
/// WHERE` that counts only while the count is under the limit: PostgreSQL locks the key's row
/// until the transaction ends, so concurrent requests and several servers on one database
/// take turns and none passes the cap; SQLite's single writer does the same. A transaction that
/// reserves several keys takes the budgets first (``lockBudgets(_:now:in:)``), so two
/// transactions never wait for each other's keys in opposite orders.
enum SendCounter {
    static let migration = Migration(
        version: 260, name: "sending caps counted apart from accounts, email confirmation codes",
        statements: [
            """
            CREATE TABLE lifesignal_send_counts (
                key text PRIMARY KEY,
                sent integer NOT NULL,
                window_started_at timestamptz NOT NULL)
            """,
            "CREATE INDEX deliveries_alert ON deliveries (alert_id) WHERE alert_id IS NOT NULL",
            """
            CREATE TABLE auth_email_codes (
                email text PRIMARY KEY,
                code_hash text NOT NULL,
                attempts integer NOT NULL DEFAULT 0,
                purpose text NOT NULL,
                user_id uuid NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
                expires_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL)
            """,
            "ALTER TABLE auth_users ADD COLUMN email_change text",
            // Proven by a mailed code: what mail may go to. `email_confirmed_at` alone may be
            // sign-up's autoconfirm on a server without mail, which proves nothing.
            "ALTER TABLE auth_users ADD COLUMN email_verified_at timestamptz",
            "CREATE TABLE lifesignal_sms_unreachable (phone text PRIMARY KEY, reason text NOT NULL, recorded_at timestamptz NOT NULL)",
        ],
        postgresOnly: [
            "ALTER TABLE lifesignal_send_counts ENABLE ROW LEVEL SECURITY", "GRANT ALL ON lifesignal_send_counts TO service_role",
            "ALTER TABLE auth_email_codes ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE lifesignal_sms_unreachable ENABLE ROW LEVEL SECURITY", "GRANT ALL ON lifesignal_sms_unreachable TO service_role",
        ])

    /// Counts one message under `key` if fewer than `limit` were counted in the current
    /// `window`; returns whether it was counted. A refusal changes nothing.
    static func reserve(_ key: String, limit: Int, window: TimeInterval, now: Date, in connection: any SQLConnection) async throws -> Bool {
        guard limit > 0 else { return false }
        let windowStart = SQLValue(now - window)
        return try await connection.first(
            """
            INSERT INTO lifesignal_send_counts (key, sent, window_started_at) VALUES (\(key), 1, \(SQLValue(now)))
            ON CONFLICT (key) DO UPDATE SET
                sent = CASE WHEN lifesignal_send_counts.window_started_at <= \(windowStart) THEN 1 ELSE lifesignal_send_counts.sent + 1 END,
                window_started_at = CASE WHEN lifesignal_send_counts.window_started_at <= \(windowStart) THEN excluded.window_started_at
                                         ELSE lifesignal_send_counts.window_started_at END
            WHERE lifesignal_send_counts.window_started_at <= \(windowStart) OR lifesignal_send_counts.sent < \(limit)
            RETURNING sent
            """) != nil
    }

    /// When the window of `key` ends (for `Retry-After`), or `nil` when it has none open.
    static func windowEnd(of key: String, window: TimeInterval, now: Date, in connection: any SQLConnection) async throws -> Date? {
        guard let row = try await connection.first("SELECT window_started_at FROM lifesignal_send_counts WHERE key = \(key)") else { return nil }
        let end = try row.date("window_started_at") + window
        return end > now ? end : nil
    }

    /// Reserves `key` or throws ``DomainError/rateLimited(retryAfter:)`` with when its window ends.
    static func require(_ key: String, limit: Int, window: TimeInterval, now: Date, in connection: any SQLConnection) async throws {
        guard try await !reserve(key, limit: limit, window: window, now: now, in: connection) else { return }
        let end = try await windowEnd(of: key, window: window, now: now, in: connection) ?? now + window
        throw DomainError.rateLimited(retryAfter: max(1, end.timeIntervalSince(now).rounded(.up)))
    }

    /// The budget key of a paid channel.
    static func budgetKey(_ channel: DeliveryChannel) -> String { "budget:" + channel.rawValue }

    /// Takes the daily budget rows of `channels` (in one order everywhere), opening a new day's
    /// window where the last one ended, and returns how much of each is spent. Held until the
    /// transaction ends: every transaction that counts paid messages takes these first.
    static func lockBudgets(_ channels: Set<DeliveryChannel>, now: Date, in connection: any SQLConnection) async throws -> [DeliveryChannel: Int] {
        let windowStart = SQLValue(now - SendingCaps.day)
        var spent: [DeliveryChannel: Int] = [:]
        for channel in DeliveryChannel.allCases where channel.isPaid && channels.contains(channel) {
            let row = try await connection.first(
                """
                INSERT INTO lifesignal_send_counts (key, sent, window_started_at) VALUES (\(budgetKey(channel)), 0, \(SQLValue(now)))
                ON CONFLICT (key) DO UPDATE SET
                    sent = CASE WHEN lifesignal_send_counts.window_started_at <= \(windowStart) THEN 0 ELSE lifesignal_send_counts.sent END,
                    window_started_at = CASE WHEN lifesignal_send_counts.window_started_at <= \(windowStart) THEN excluded.window_started_at
                                             ELSE lifesignal_send_counts.window_started_at END
                RETURNING sent
                """)
            spent[channel] = try row?.int("sent") ?? 0
        }
        return spent
    }

    /// Takes `channel`'s budget and counts one message on it, or throws
    /// ``DomainError/rateLimited(retryAfter:)`` until the budget's window ends: for what the
    /// server sends at someone's request (codes), which waits rather than spend past the budget.
    static func spendOrRefuse(_ channel: DeliveryChannel, limit: Int, now: Date, in connection: any SQLConnection) async throws {
        let spent = try await lockBudgets([channel], now: now, in: connection)
        guard (spent[channel] ?? 0) < limit else {
            let end = try await windowEnd(of: budgetKey(channel), window: SendingCaps.day, now: now, in: connection) ?? now + SendingCaps.day
            throw DomainError.rateLimited(retryAfter: max(1, end.timeIntervalSince(now).rounded(.up)))
        }
        try await spend(1, of: channel, in: connection)
    }

    /// Adds `count` messages to a budget taken with ``lockBudgets(_:now:in:)``.
    static func spend(_ count: Int, of channel: DeliveryChannel, in connection: any SQLConnection) async throws {
        guard count > 0 else { return }
        try await connection.query("UPDATE lifesignal_send_counts SET sent = sent + \(count) WHERE key = \(budgetKey(channel))")
    }

    /// What has been counted under every budget key, for `/metrics`.
    static func budgets(now: Date, in connection: any SQLConnection) async throws -> [DeliveryChannel: Int] {
        var spent: [DeliveryChannel: Int] = [:]
        for row in try await connection.query("SELECT key, sent, window_started_at FROM lifesignal_send_counts WHERE key LIKE 'budget:%'") {
            guard let channel = DeliveryChannel(rawValue: String(try row.string("key").dropFirst("budget:".count))) else { continue }
            spent[channel] = try row.date("window_started_at") > now - SendingCaps.day ? try row.int("sent") : 0
        }
        return spent
    }
}
