import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension Notifier {
    /// Hands pushes to their devices: first into each device's inbox (announced on the change
    /// feed as `device_messages` inserts of the device's owner), then to the push sender.
    ///
    /// Neither step undoes the other or throws: the rule that caused the pushes has already
    /// committed, so an inbox write or a push provider failing is logged, not reported.
    func send(_ entries: [InboxEntry]) async {
        guard !entries.isEmpty else { return }
        do {
            changes.publish(try await DeviceInbox.record(entries, in: database))
        } catch {
            logger.warning("device inbox write failed: \(error)")
        }
        do {
            try await push.send(entries.map(\.message))
        } catch {
            logger.warning("push delivery failed: \(error)")
        }
    }
}
