import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Logging

/// Delivery after commit: publishes the committed changes on the ``ChangeFeed`` and sends
/// the delivery-ledger rows the rule queued (push, SMS, email) right away, waiting for them a
/// few seconds at most.
///
/// It never throws: the rule that produced the outbox has already succeeded, and a provider
/// being down must not turn that success into an error the client would retry. What could not
/// be sent now stays in the ledger, which the server's worker retries
/// (``DeliveryLedger/sendDue(limit:)``).
struct Notifier: Sendable {
    let database: any Database
    let changes: ChangeFeed
    let push: any PushSender
    let ledger: DeliveryLedger
    let logger = Logger(label: "lifesignal.notifications")

    func deliver(_ outbox: Outbox) async {
        var events = outbox.changes
        for record in outbox.notifications {
            events.append(
                ChangeEvent(table: "notifications", kind: .insert, rowID: record.id.uuidString.lowercased(), ownerID: record.userID, at: record.createdAt))
        }
        changes.publish(events)
        await ledger.sendAfterCommit(ids: outbox.deliveries)
    }
}
