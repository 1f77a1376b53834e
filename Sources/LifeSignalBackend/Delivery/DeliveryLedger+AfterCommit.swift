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
        await TimeLimit.wait(for: Task { await send(ids: ids) }, atMost: policy.afterCommitWait)
    }
}
