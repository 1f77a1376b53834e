import Foundation

/// The sends a rule left running after it answered (``DeliveryLedger/sendAfterCommit(ids:)``),
/// so a server that stops can give them a moment to finish (``DeliveryLedger/drain(atMost:)``)
/// instead of leaving their rows claimed until the lease ends — an SOS sent 90 s late.
final class BackgroundSends: @unchecked Sendable {
    // `running` is read and written only under `lock` (Mutex needs macOS 15; the package runs on 14).
    private let lock = NSLock()
    private var running: [UUID: Task<Void, Never>] = [:]

    /// Starts `work` and keeps it until it ends. Registered under the lock it removes itself
    /// with, so a send that ends at once is never left behind.
    func start(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let id = UUID()
        return lock.withLock {
            let task = Task { [weak self] in
                await work()
                self?.finished(id)
            }
            running[id] = task
            return task
        }
    }

    private func finished(_ id: UUID) { _ = lock.withLock { running.removeValue(forKey: id) } }

    /// The sends still running.
    var count: Int { lock.withLock { running.count } }

    /// Waits until every send still running has ended, or `limit` has passed; whether all ended.
    func drain(atMost limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let tasks = lock.withLock { Array(running.values) }
            if tasks.isEmpty { return true }
            let left = deadline - ContinuousClock.now
            let all = Task { for task in tasks { await task.value } }
            guard await TimeLimit.wait(for: all, atMost: left) else { return lock.withLock { running.isEmpty } }
        }
        return lock.withLock { running.isEmpty }
    }
}
