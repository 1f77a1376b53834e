import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// One push for one device, with the person the device belongs to and the topic it went to.
struct InboxEntry: Sendable {
    var user: UserID
    var message: PushMessage
    var topic: String?
    var sentAt: Date
}

/// Every push the backend sends, kept per device token (`device_messages`): how a device
/// without an FCM connection receives its messages, and the record of what was pushed.
public enum DeviceInbox {
    /// Held by inbox writers on PostgreSQL until they commit, so `seq` values commit in
    /// the order they were drawn (readers page by `seq`).
    static let postgresWriteLock = 7_251_130

    /// How long a message waits in an inbox: FCM keeps a message for a device that is offline
    /// at most four weeks (its longest time to live), and so does this.
    public static let retention: TimeInterval = 28 * 24 * 3600

    /// An entry with its new row's id and its data as JSON text.
    private struct Row: Sendable {
        var id: UUID
        var entry: InboxEntry
        var data: String

        var event: ChangeEvent {
            ChangeEvent(table: "device_messages", kind: .insert, rowID: id.uuidString.lowercased(), ownerID: entry.user, at: entry.sentAt)
        }
    }

    /// Stores one push the delivery ledger sends, under its ledger row's id, so a retried
    /// attempt stores it once. Returns the token's platform, with the change event when the
    /// message was stored now; `nil` when the token is gone or now someone else's.
    static func recordDelivery(_ entry: InboxEntry, id: UUID, in database: any Database) async throws -> (platform: String, event: ChangeEvent?)? {
        let row = Row(id: id, entry: entry, data: try encoded(entry.message.data))
        return try await database.transaction { connection in
            guard
                let token = try await connection.first(
                    """
                    SELECT platform FROM push_tokens WHERE token = \(entry.message.token) AND user_id = \(entry.user)
                    """)
            else { return nil }
            let platform = try token.string("platform")
            if try await connection.first("SELECT 1 AS present FROM device_messages WHERE id = \(id)") != nil {
                return (platform, nil)
            }
            try await insert([row], in: connection)
            return (platform, row.event)
        }
    }

    /// Inserts `rows` and deletes what has passed retention, inside the caller's transaction.
    private static func insert(_ rows: [Row], in connection: any SQLConnection) async throws {
        guard let newest = rows.map(\.entry.sentAt).max() else { return }
        if connection.dialect == .postgres {
            try await connection.query("SELECT pg_advisory_xact_lock(\(postgresWriteLock))")
        }
        // Chunks keep the parameter count far below either engine's limit.
        for start in stride(from: 0, to: rows.count, by: 200) {
            let values = rows[start..<min(start + 200, rows.count)].map { row -> SQL in
                let entry = row.entry
                return
                    "(\(row.id), \(entry.message.token), \(entry.user), \(entry.message.title), \(entry.message.body), \(row.data), \(entry.topic), \(entry.sentAt))"
            }
            try await connection.query(
                "INSERT INTO device_messages (id, token, user_id, title, body, data, topic, created_at) VALUES "
                    + SQL.join(values, separator: ", "))
        }
        // Expired messages go as new ones arrive, so an inbox nobody reads stays bounded.
        try await connection.query("DELETE FROM device_messages WHERE created_at < \(newest.addingTimeInterval(-retention))")
    }

    private static func encoded(_ data: [String: String]) throws -> String {
        String(decoding: try JSONEncoder.sorted.encode(data), as: UTF8.self)
    }

    /// Up to `limit` messages of `token` after `cursor`, oldest first. The caller has already
    /// checked that the token is `user`'s; the filter on both keeps it that way regardless.
    static func page(token: String, user: UserID, after cursor: Int, limit: Int, in connection: any SQLConnection) async throws -> DeviceMessagePage {
        let rows = try await connection.query(
            """
            SELECT seq, id, title, body, data, topic, created_at FROM device_messages
            WHERE token = \(token) AND user_id = \(user) AND seq > \(cursor) ORDER BY seq LIMIT \(limit)
            """)
        var last = cursor
        let messages = try rows.map { row in
            last = try row.int("seq")
            let data = try JSONDecoder().decode([String: String].self, from: Data(try row.string("data").utf8))
            return RemoteMessage(
                id: try row.uuid("id"), title: try row.string("title"), body: try row.string("body"), data: data,
                topic: row.optionalString("topic"), sentAt: try row.date("created_at"))
        }
        return DeviceMessagePage(messages: messages, cursor: last)
    }
}
