import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A responder's fallback order (``DeliveryPreferences/fallback``): an alert round reaches them
/// on one channel at a time, and moves on to the next when the current one fails or goes
/// unanswered for its share of the tier's delay, until someone answers.
///
/// Every step is a ledger row written with the round, in the same transaction: the first
/// `queued`, the others `held` with `next_attempt_at` at their turn. So a server that dies
/// mid-chain leaves the rest of the chain in the database for any other server, and a step is
/// claimed (and sent) once like any other row. A held row becomes `queued` when its turn comes
/// (``releaseDue(now:in:)``) or at once when the step before it failed (``releaseNext(after:now:in:)``),
/// and `cancelled` as soon as anyone acknowledges or the incident ends (``cancel(alert:now:in:)``).
enum DeliveryFallback {
    /// Kinds a fallback order applies to: a round telling a responder someone needs help.
    static let kinds: Set<NotificationType> = [.alertActivatedReceived, .nonResponsiveDependent]
    /// The shortest wait before the next channel, however short the tier's delay.
    static let shortestStep: TimeInterval = 60

    static func order(_ text: String?) -> [DeliveryChannel] {
        (text ?? "").split(separator: ",").compactMap { DeliveryChannel(rawValue: String($0)) }
    }

    static func text(_ order: [DeliveryChannel]) -> String? {
        order.isEmpty ? nil : order.map(\.rawValue).joined(separator: ",")
    }

    /// Plans the steps of the notifications one transaction queues; knows each person's tier
    /// delay once read.
    struct Steps {
        private var tierDelays: [UserID: TimeInterval] = [:]

        /// The channels of `item` in the order they are tried, and the time between steps
        /// (`0`: every channel at once, as without an order).
        mutating func plan(
            _ item: DeliveryQueue.Item, chosen: [DeliveryChannel], order: [DeliveryChannel], now: Date, in connection: any SQLConnection
        ) async throws -> (channels: [DeliveryChannel], step: TimeInterval) {
            let record = item.record
            guard !order.isEmpty, item.incident != nil, kinds.contains(record.type), let person = record.contactID, chosen.count > 1 else {
                return (chosen, 0)
            }
            let ordered = order.filter(chosen.contains) + chosen.filter { !order.contains($0) }
            if tierDelays[person] == nil {
                let row = try await connection.first("SELECT escalation_tier_delay_seconds FROM users WHERE id = \(person)")
                tierDelays[person] = TimeInterval(row?.optionalInt("escalation_tier_delay_seconds") ?? 7200)
            }
            let delay = tierDelays[person] ?? 7200
            return (ordered, max(DeliveryFallback.shortestStep, delay / Double(ordered.count)))
        }
    }

    /// Cancels held steps no longer needed, and queues those whose turn has come; returns how
    /// many were queued. Run by the worker before it claims.
    static func releaseDue(now: Date, in connection: any SQLConnection) async throws -> Int {
        try await connection.query(
            """
            UPDATE deliveries SET status = 'cancelled', updated_at = \(now)
            WHERE status = 'held' AND alert_id IN (SELECT id FROM alerts WHERE status <> 'active' OR acknowledged_at IS NOT NULL)
            """)
        return try await connection.query(
            """
            UPDATE deliveries SET status = 'queued', updated_at = \(now)
            WHERE status = 'held' AND next_attempt_at <= \(now) RETURNING id
            """
        ).count
    }

    /// The step after `delivery` (which failed) is due now.
    static func releaseNext(after delivery: UUID, now: Date, in connection: any SQLConnection) async throws {
        // Every row of the next step (a push may go to several devices), not the later ones.
        guard let row = try await connection.first("SELECT notification_id FROM deliveries WHERE id = \(delivery)"),
            let notification = row.optionalUUID("notification_id")
        else { return }
        try await connection.query(
            """
            UPDATE deliveries SET next_attempt_at = \(now), updated_at = \(now)
            WHERE notification_id = \(notification) AND status = 'held'
              AND next_attempt_at = (SELECT min(next_attempt_at) FROM deliveries WHERE notification_id = \(notification) AND status = 'held')
            """)
    }

    /// Someone answered `alert`, or it ended: its held steps are not needed.
    static func cancel(alert: UUID, now: Date, in connection: any SQLConnection) async throws {
        try await connection.query(
            "UPDATE deliveries SET status = 'cancelled', updated_at = \(now) WHERE alert_id = \(alert) AND status = 'held'")
    }
}
