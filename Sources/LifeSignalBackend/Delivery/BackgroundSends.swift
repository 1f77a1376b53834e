import Foundation
import Synchronization

/// The sends a rule left running after it answered (``DeliveryLedger/sendAfterCommit(ids:)``),
/// so a server that stops can give them a moment to finish (``DeliveryLedger/drain(atMost:)``)
/// instead of leaving their rows claimed until the lease ends — an SOS sent 90 s late.
final class BackgroundSends: Sendable {
    private let running = Mutex<[UUID: Task<Void, Never>]>([:])

    /// Starts `work` and keeps it until it ends. Registered under the lock it removes itself
    /// with, so a send that ends at once is never left behind.
    func start(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let id = UUID()
        return running.withLock { running in
            let task = Task { [weak self] in
                await work()
                self?.finished(id)
            }
            running[id] = task
            return task
        }
    }

    private func finished(_ id: UUID) { _ = running.withLock { $0.removeValue(forKey: id) } }

    /// The sends still running.
    var count: Int { running.withLock { $0.count } }

    /// Waits until every send still running has ended, or `limit` has passed; whether all ended.
    func drain(atMost limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let tasks = running.withLock { Array($0.values) }
            if tasks.isEmpty { return true }
            let left = deadline - ContinuousClock.now
            let all = Task { for task in tasks { await task.value } }
            guard await TimeLimit.wait(for: all, atMost: left) else { return running.withLock { $0.isEmpty } }
        }
        return running.withLock { $0.isEmpty }
    }
}
