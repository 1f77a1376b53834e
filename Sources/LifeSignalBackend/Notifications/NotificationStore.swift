import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Writes notification rows inside the caller's transaction, so a notification exists if and
/// only if the change it reports committed — and so do its delivery-ledger rows
/// (``DeliveryQueue``): a push, SMS or email is queued exactly when its event commits.
enum NotificationStore {
    /// Inserts `drafts` in one statement and returns the stored rows.
    static func insert(_ drafts: [NotificationDraft], now: Date, in connection: any SQLConnection) async throws -> [NotificationRecord] {
        guard !drafts.isEmpty else { return [] }
        var records: [NotificationRecord] = []
        // Chunks keep the parameter count far below either engine's limit.
        for start in stride(from: 0, to: drafts.count, by: 500) {
            let rows = drafts[start..<min(start + 500, drafts.count)].map { draft -> SQL in
                "(\(draft.recipient), \(draft.type.rawValue), \(draft.title), \(draft.body), \(draft.contactID), \(false), \(now))"
            }
            let sql: SQL =
                "INSERT INTO notifications (user_id, type, title, body, contact_id, is_read, created_at) VALUES "
                + SQL.join(rows, separator: ", ") + SQL.raw(" RETURNING " + NotificationRecord.columns)
            records += try await connection.query(sql).map(NotificationRecord.init(row:))
        }
        return records
    }

    /// The same, wrapped in an ``Outbox`` with the change events for the new rows.
    static func outbox(_ drafts: [NotificationDraft], now: Date, in connection: any SQLConnection) async throws -> Outbox {
        var outbox = Outbox()
        outbox.notifications = try await insert(drafts, now: now, in: connection)
        outbox.deliveries = try await DeliveryQueue.enqueue(outbox.notifications, now: now, in: connection)
        return outbox
    }
}
