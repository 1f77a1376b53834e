import Foundation
import Synchronization

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
package final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        var early: Result<Value, any Error>?
        var done = false
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

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
        let early: Result<Value, any Error>? = state.withLock { state in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Tasks to cancel once the outcome is known (at once, if it already is).
    package func track(_ newTasks: Task<Void, Never>...) {
        let finished = state.withLock { state in
            if !state.done { state.tasks += newTasks }
            return state.done
        }
        if finished { newTasks.forEach { $0.cancel() } }
    }

    /// Delivers `result` when no outcome is known yet.
    ///
    /// - Returns: whether this call decided the outcome (a late result can then be disposed
    ///   of, e.g. a socket that opened after its deadline closed).
    @discardableResult
    package func finish(_ result: Result<Value, any Error>) -> Bool {
        let decided: (continuation: CheckedContinuation<Value, any Error>?, tasks: [Task<Void, Never>])? = state.withLock { state in
            guard !state.done else { return nil }
            state.done = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.early = result }
            defer { state.tasks = [] }
            return (continuation, state.tasks)
        }
        guard let (continuation, tasks) = decided else { return false }
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
