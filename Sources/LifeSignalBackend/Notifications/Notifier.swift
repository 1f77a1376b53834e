import Foundation
import LifeSignalDomain
import Logging

/// Delivery after commit: publishes the committed changes on the ``ChangeFeed`` and pushes
/// each new notification to the recipient's devices, when they have notifications enabled.
///
/// It never throws: the rule that produced the outbox has already succeeded, and a push
/// provider being down must not turn that success into an error the client would retry.
struct Notifier: Sendable {
    let database: any Database
    let changes: ChangeFeed
    let push: any PushSender
    let logger = Logger(label: "lifesignal.notifications")

    func deliver(_ outbox: Outbox) async {
        var events = outbox.changes
        for record in outbox.notifications {
            events.append(ChangeEvent(table: "notifications", kind: .insert, rowID: record.id.uuidString.lowercased(), ownerID: record.userID, at: record.createdAt))
        }
        changes.publish(events)
        guard !outbox.notifications.isEmpty else { return }
        do {
            let tokens = try await tokensByUser(Set(outbox.notifications.map(\.userID)))
            var entries: [InboxEntry] = []
            for record in outbox.notifications {
                for token in tokens[record.userID] ?? [] {
                    var data = ["type": record.type.rawValue, "notificationId": record.id.uuidString.lowercased()]
                    if let contact = record.contactID { data["contactId"] = contact.description }
                    entries.append(InboxEntry(
                        user: record.userID, message: PushMessage(token: token, title: record.title, body: record.body, data: data),
                        topic: nil, sentAt: record.createdAt))
                }
            }
            await send(entries)
        } catch {
            logger.warning("push delivery failed: \(error)")
        }
    }

    /// Device tokens of the people among `users` who want pushes.
    private func tokensByUser(_ users: Set<UserID>) async throws -> [UserID: [String]] {
        var result: [UserID: [String]] = [:]
        let ids = Array(users)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let list = SQL.join(ids[start..<min(start + 500, ids.count)].map { "\($0)" }, separator: ", ")
            let rows = try await database.query("""
                SELECT t.user_id, t.token FROM push_tokens t JOIN users u ON u.id = t.user_id
                WHERE u.notifications_enabled = \(true) AND t.user_id IN (\(list)) ORDER BY t.created_at
                """)
            for row in rows { result[UserID(try row.uuid("user_id")), default: []].append(try row.string("token")) }
        }
        return result
    }
}
