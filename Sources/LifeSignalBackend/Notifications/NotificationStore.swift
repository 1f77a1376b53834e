import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Writes notification rows inside the caller's transaction, so a notification exists if and
/// only if the change it reports committed — and so do its delivery-ledger rows
/// (``DeliveryQueue``): a push, SMS or email is queued exactly when its event commits.
enum NotificationStore {
    /// Inserts `drafts` in one statement per 500 and returns the stored rows, in the drafts' order.
    static func insert(_ drafts: [NotificationDraft], now: Date, in connection: any SQLConnection) async throws -> [NotificationRecord] {
        guard !drafts.isEmpty else { return [] }
        // Ids are made here, so each stored row is matched to its draft by id, not by the order
        // RETURNING happens to give.
        let ids = drafts.map { _ in UUID() }
        var stored: [UUID: NotificationRecord] = [:]
        for start in stride(from: 0, to: drafts.count, by: 500) {
            let rows = (start..<min(start + 500, drafts.count)).map { index -> SQL in
                let draft = drafts[index]
                return "(\(ids[index]), \(draft.recipient), \(draft.type.rawValue), \(draft.title), \(draft.body), \(draft.contactID), \(false), \(now))"
            }
            let sql: SQL =
                "INSERT INTO notifications (id, user_id, type, title, body, contact_id, is_read, created_at) VALUES "
                + SQL.join(rows, separator: ", ") + SQL.raw(" RETURNING " + NotificationRecord.columns)
            for record in try await connection.query(sql).map(NotificationRecord.init(row:)) { stored[record.id] = record }
        }
        return try ids.map { id in
            guard let record = stored[id] else { throw DomainError.internal("notification \(id) was not stored") }
            return record
        }
    }

    /// The same, wrapped in an ``Outbox`` with the change events for the new rows, and queued
    /// in the delivery ledger. A person whose responders stopped hearing alert rounds by SMS or
    /// email this hour is told so once (push and in the app).
    static func outbox(_ drafts: [NotificationDraft], now: Date, in connection: any SQLConnection) async throws -> Outbox {
        var outbox = Outbox()
        outbox.notifications = try await insert(drafts, now: now, in: connection)
        let items = zip(outbox.notifications, drafts).map {
            DeliveryQueue.Item(record: $0, incident: $1.incident, freeChannelsOnly: $1.freeChannelsOnly, startsRound: $1.startsRound)
        }
        let queued = try await DeliveryQueue.enqueue(items, now: now, in: connection)
        outbox.deliveries = queued.ids
        var notices: [NotificationDraft] = []
        for person in queued.roundsHeldFor.sorted(by: { $0.description < $1.description }) {
            guard try await SendCounter.reserve("rounds-notice:\(person)", limit: 1, window: SendingCaps.hour, now: now, in: connection)
            else { continue }
            notices.append(
                NotificationDraft(
                    recipient: person, type: .system, title: "Alerts by app only for now",
                    body: """
                        Your responders have had \(DeliveryLedger.rulesInScope.caps.alertRoundsPerHour) alerts about you by text or email \
                        in the last hour. Until \(Incidents.clockTime(now + SendingCaps.hour)) they hear further alerts in the app only.
                        """,
                    freeChannelsOnly: true))
        }
        if !notices.isEmpty { outbox.append(try await self.outbox(notices, now: now, in: connection)) }
        return outbox
    }
}
