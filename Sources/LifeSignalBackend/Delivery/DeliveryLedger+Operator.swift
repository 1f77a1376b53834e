import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension DeliveryLedger {
    /// How long finished rows (sent, delivered, failed) stay in the ledger: as long as the
    /// notifications they delivered.
    public static let retention: TimeInterval = 7 * 24 * 3600

    /// Rows newest first, for the service role (`list-deliveries`, `lifesignal deliveries`).
    public func list(
        caller: Caller, status: DeliveryStatus? = nil, channel: DeliveryChannel? = nil,
        user: UserID? = nil, limit: Int = 100
    ) async throws -> [DeliveryRecord] {
        guard case .service = caller else { throw DomainError.forbidden("Only the service role may read the delivery ledger") }
        guard (1...1000).contains(limit) else { throw DomainError.invalidArgument("limit must be between 1 and 1000, not \(limit)") }
        var conditions: [SQL] = [" 1 = 1"]
        if let status { conditions.append("status = \(status.rawValue)") }
        if let channel { conditions.append("channel = \(channel.rawValue)") }
        if let user { conditions.append("user_id = \(user)") }
        let filter = SQL.join(conditions, separator: " AND ")
        let rows = try await database.transaction { connection in
            try await connection.query(
                """
                SELECT id, notification_id, user_id, channel, address, kind, title, status, attempts, next_attempt_at, provider_message_id,
                       last_error, created_at, sent_at FROM deliveries WHERE
                """ + filter + " ORDER BY created_at DESC, id LIMIT \(limit)")
        }
        return try rows.map { row in
            let status = DeliveryStatus(rawValue: try row.string("status")) ?? .queued
            return DeliveryRecord(
                id: try row.uuid("id"), notificationID: try row.uuid("notification_id"),
                userID: row.optionalUUID("user_id").map { UserID($0) },
                channel: DeliveryChannel(rawValue: try row.string("channel")) ?? .push,
                address: Self.masked(try row.string("address")), kind: try row.string("kind"), title: try row.string("title"), status: status,
                attempts: try row.int("attempts"),
                nextAttemptAt: status == .queued || status == .sending ? row.optionalDate("next_attempt_at") : nil,
                providerMessageID: row.optionalString("provider_message_id"), lastError: row.optionalString("last_error"),
                createdAt: try row.date("created_at"), sentAt: row.optionalDate("sent_at"))
        }
    }

    /// Rows by channel and status, and the age of the oldest row waiting to be sent: what
    /// `/metrics` shows. A growing queue or an old waiting row means a channel is not getting
    /// through.
    public func summary() async throws -> DeliverySummary {
        let now = clock.now()
        return try await database.transaction { connection in
            var summary = DeliverySummary()
            for row in try await connection.query("SELECT channel, status, count(*) AS n FROM deliveries GROUP BY channel, status") {
                guard let channel = DeliveryChannel(rawValue: try row.string("channel")),
                    let status = DeliveryStatus(rawValue: try row.string("status"))
                else { continue }
                summary.counts[channel, default: [:]][status] = try row.int("n")
            }
            if let row = try await connection.first(
                """
                SELECT created_at FROM deliveries WHERE status IN ('queued', 'sending') ORDER BY created_at LIMIT 1
                """), let oldest = row.optionalDate("created_at")
            {
                summary.oldestWaiting = max(0, now.timeIntervalSince(oldest))
            }
            summary.budgetSpent = try await SendCounter.budgets(now: now, in: connection)
            return summary
        }
    }

    /// Deletes finished rows past ``retention``, `batch` a transaction (SQLite's writer is held
    /// a slice at a time), and inbox messages past theirs. Returns the ledger rows deleted.
    @discardableResult
    public func prune(batch: Int = 1000) async throws -> Int {
        let now = clock.now()
        var total = 0
        var deleted = batch
        while deleted == batch {
            deleted = try await database.transaction { connection in
                try await connection.query(
                    """
                    DELETE FROM deliveries WHERE id IN (SELECT id FROM deliveries
                        WHERE status IN ('sent', 'delivered', 'failed') AND created_at < \(now.addingTimeInterval(-Self.retention)) LIMIT \(batch))
                    RETURNING id
                    """
                ).count
            }
            total += deleted
        }
        _ = try await database.transaction { connection in
            try await connection.query(
                """
                DELETE FROM device_messages WHERE id IN (SELECT id FROM device_messages
                    WHERE created_at < \(now.addingTimeInterval(-DeviceInbox.retention)) LIMIT \(batch))
                """)
        }
        return total
    }

    /// `+1555…11`, `ab…yz@example.com`, `a1b2c3d4…`.
    static func masked(_ address: String) -> String {
        if let at = address.firstIndex(of: "@") {
            let local = address[..<at]
            return "\(local.prefix(2))…\(address[at...])"
        }
        if address.hasPrefix("+") { return "\(address.prefix(5))…\(address.suffix(2))" }
        return "\(address.prefix(8))…"
    }
}

/// Rows by channel and status, and the oldest waiting row's age in seconds.
public struct DeliverySummary: Sendable, Hashable {
    public var counts: [DeliveryChannel: [DeliveryStatus: Int]] = [:]
    public var oldestWaiting: TimeInterval?
    /// What the daily budget of each paid channel has counted in its current window.
    public var budgetSpent: [DeliveryChannel: Int] = [:]
}

/// What a provider later says became of a message it took.
public enum ProviderStatus: Sendable, Hashable {
    case delivered
    case failed(String)
}

extension DeliveryLedger {
    /// Records a provider's later word on the message it gave `providerMessageID`. Returns
    /// whether a row of `channel` had that id. Only rows already sent change: a late
    /// `delivered` never revives a row the ledger gave up on.
    @discardableResult
    public func record(_ status: ProviderStatus, providerMessageID: String, channel: DeliveryChannel) async throws -> Bool {
        let now = clock.now()
        let (name, error): (String, String?) =
            switch status {
            case .delivered: ("delivered", nil)
            case .failed(let reason): ("failed", reason)
            }
        return try await database.transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE deliveries SET status = \(name), last_error = coalesce(\(error), last_error), updated_at = \(now)
                WHERE provider_message_id = \(providerMessageID) AND channel = \(channel.rawValue) AND status IN ('sent', 'delivered')
                RETURNING id
                """)
            // Undelivered: a responder's fallback order moves on now, not at the step's end.
            if case .failed = status {
                for row in rows { try await DeliveryFallback.releaseNext(after: try row.uuid("id"), now: now, in: connection) }
            }
            return !rows.isEmpty
        }
    }
}
