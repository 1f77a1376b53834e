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
        let sending = Task { await send(ids: ids) }
        let gate = WaitGate()
        let timer = Task {
            try? await Task.sleep(for: policy.afterCommitWait)
            gate.open()
        }
        await withCheckedContinuation { continuation in
            gate.arm(continuation)
            Task {
                await sending.value
                gate.open()
            }
        }
        timer.cancel()
    }
}

/// Resumes one waiter once, whichever of several events comes first.
private final class WaitGate: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?
    private var opened = false

    func arm(_ continuation: CheckedContinuation<Void, Never>) {
        let resumeNow = lock.withLock {
            if opened { return true }
            self.continuation = continuation
            return false
        }
        if resumeNow { continuation.resume() }
    }

    func open() {
        let waiting = lock.withLock {
            opened = true
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }
}
