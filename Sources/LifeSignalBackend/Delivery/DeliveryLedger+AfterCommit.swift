import Foundation

extension DeliveryLedger {
    /// Sends what a rule just queued, waiting at most ``DeliveryRetryPolicy/afterCommitWait``.
    ///
    /// The person who pressed SOS, or the sweep that has thousands more to escalate, gets its
    /// answer then even when a provider hangs (an attempt may take up to
    /// ``DeliveryRetryPolicy/attemptTimeout``); the sends go on in the background and record
    /// their results as usual. A server that stops meanwhile leaves the rows claimed, and their
    /// lease ending hands them to the next worker, so nothing waits on this task to be durable.
    func sendAfterCommit(ids: [UUID]) async {
        guard !ids.isEmpty else { return }
        await TimeLimit.wait(for: background.start { await send(ids: ids) }, atMost: policy.afterCommitWait)
    }

    /// Gives the sends still running after their rules answered until `limit` to finish, for a
    /// server that is stopping: what they took goes out now rather than after the lease, when
    /// another server (or this one, restarted) would send it. Returns whether all finished.
    @discardableResult
    public func drain(atMost limit: Duration) async -> Bool { await background.drain(atMost: limit) }
}
