import Foundation

/// One awaited result decided by whichever comes first — a response, a timer, the caller's
/// cancellation — with the later ones dropped.
///
/// The work behind a wait runs in unstructured tasks, not a task group: a group waits for its
/// children, so work that ignores cancellation (a transport that never answers, a socket
/// that never opens) could hold the caller past its deadline. Here the caller resumes as soon
/// as the outcome is known; the tasks given to ``track(_:)`` are cancelled then, and a task
/// that is not tracked (the URLSession exchange, which must never be cancelled) runs to its
/// own end.
///
/// `package`: shared by ``HTTPPipeline``, ``Foundation/URLSession/dataWithoutCancelling(for:)``
/// and Supabase Realtime's deadlines, not part of any public API.
package final class FirstOutcome<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, any Error>?
    private var early: Result<Value, any Error>?
    private var done = false
    private var tasks: [Task<Void, Never>] = []

    /// Creates an undecided outcome.
    package init() {}

    /// Waits for the outcome. `start` runs once the waiter is in place and may decide the
    /// outcome at once; cancelling the caller decides it as `CancellationError`.
    package func wait(_ start: () -> Void) async throws -> Value {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                install(continuation)
                start()
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// The continuation arrives after `finish` when the caller was cancelled before it
    /// suspended: the early result is delivered then.
    private func install(_ continuation: CheckedContinuation<Value, any Error>) {
        lock.lock()
        if let early {
            lock.unlock()
            continuation.resume(with: early)
            return
        }
        self.continuation = continuation
        lock.unlock()
    }

    /// Tasks to cancel once the outcome is known (at once, if it already is).
    package func track(_ newTasks: Task<Void, Never>...) {
        lock.lock()
        let finished = done
        if !finished { tasks += newTasks }
        lock.unlock()
        if finished { newTasks.forEach { $0.cancel() } }
    }

    /// Delivers `result` when no outcome is known yet.
    ///
    /// - Returns: whether this call decided the outcome (a late result can then be disposed
    ///   of, e.g. a socket that opened after its deadline closed).
    @discardableResult
    package func finish(_ result: Result<Value, any Error>) -> Bool {
        lock.lock()
        guard !done else {
            lock.unlock()
            return false
        }
        done = true
        let continuation = self.continuation
        self.continuation = nil
        if continuation == nil { early = result }
        let tasks = self.tasks
        self.tasks = []
        lock.unlock()
        tasks.forEach { $0.cancel() }
        continuation?.resume(with: result)
        return true
    }
}

/// Runs `operation`, failing with `timeout()` when it takes longer than `limit` — at the
/// limit, even when the operation ignores cancellation (it is cancelled, not awaited).
///
/// - Parameter discard: receives a result that arrives after the deadline (or after the
///   caller was cancelled), e.g. to close a socket that opened too late.
package func withDeadline<Value: Sendable>(
    _ limit: Duration,
    timeout: @escaping @Sendable () -> any Error,
    discard: (@Sendable (Value) async -> Void)? = nil,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let outcome = FirstOutcome<Value>()
    return try await outcome.wait {
        let work = Task {
            do {
                let value = try await operation()
                if !outcome.finish(.success(value)) { await discard?(value) }
            } catch {
                outcome.finish(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { outcome.finish(.failure(timeout())) }
        }
        outcome.track(work, timer)
    }
}
