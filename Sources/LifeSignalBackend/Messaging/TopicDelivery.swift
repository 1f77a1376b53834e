import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Ledger rows for a message to a topic: one push row per subscribed device, written in one
/// transaction and sent after the commit like every other message
/// (``DeliveryLedger/sendAfterCommit(ids:)``), so a topic message is recorded, retried with
/// backoff when the push provider fails, and counted on `/metrics` — not handed to the push
/// sender once and forgotten.
///
/// The rows share one `notification_id` (the message's), each with its device's token as the
/// address and its owner as the recipient; `data.topic` names the topic, and the inbox entry
/// the sender writes keeps it (``DeliverySenders``).
enum TopicDelivery {
    /// The ledger's `kind` of a topic message.
    static let kind = "topic"

    /// Queues `title`/`body` with `data` (which names the topic) for every device subscribed
    /// to `topic`, and returns the rows' ids.
    static func enqueue(
        topic: String, title: String, body: String, data: [String: String], now: Date, in connection: any SQLConnection
    ) async throws -> [UUID] {
        let subscribers = try await connection.query(
            "SELECT token, user_id FROM topic_subscriptions WHERE topic = \(topic) ORDER BY created_at, token")
        let message = UUID()
        let payload = String(decoding: try JSONEncoder.sorted.encode(data), as: UTF8.self)
        var ids: [UUID] = []
        for start in stride(from: 0, to: subscribers.count, by: 200) {
            var values: [SQL] = []
            for row in subscribers[start..<min(start + 200, subscribers.count)] {
                let id = UUID()
                ids.append(id)
                values.append(
                    """
                    (\(id), \(message), \(try row.uuid("user_id")), 'push', \(try row.string("token")), \(kind), \(title), \(body), \(payload), \
                    'queued', 0, \(now), \(now), \(now))
                    """)
            }
            try await connection.query(
                """
                INSERT INTO deliveries (id, notification_id, user_id, channel, address, kind, title, body, data, \
                status, attempts, next_attempt_at, created_at, updated_at) VALUES \(SQL.join(values, separator: ", "))
                """)
        }
        return ids
    }
}
