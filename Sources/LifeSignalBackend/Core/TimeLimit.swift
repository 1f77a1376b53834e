import Foundation
import Synchronization

/// Waiting for work with a bound, without being held by work that never ends.
///
/// A task group would not do: it awaits every child before it returns, so a child stuck on a
/// socket whose peer vanished would hold the caller exactly as long as the bound was meant to
/// spare it. Here the caller is resumed by whichever comes first, the task's end or the
/// deadline, and a task past its deadline is cancelled and left to end on its own.
public enum TimeLimit {
    /// `task`'s result, or `nil` when `limit` passes first (the task is then cancelled).
    public static func result<T: Sendable>(of task: Task<T, any Error>, within limit: Duration) async -> Result<T, any Error>? {
        let first = FirstResume<Result<T, any Error>?>()
        let outcome = await withCheckedContinuation { continuation in
            first.set(continuation)
            Task { first.resume(await task.result) }
            Task {
                try? await Task.sleep(for: limit)
                first.resume(nil)
            }
        }
        if outcome == nil { task.cancel() }
        return outcome
    }

    /// Waits for `task` at most `limit` and leaves it running past that (unlike
    /// ``result(of:within:)``, which cancels it); whether it ended in time.
    @discardableResult
    public static func wait<T: Sendable>(for task: Task<T, Never>, atMost limit: Duration) async -> Bool {
        let first = FirstResume<Bool>()
        return await withCheckedContinuation { continuation in
            first.set(continuation)
            let timer = Task {
                try? await Task.sleep(for: limit)
                first.resume(false)
            }
            first.onResume { timer.cancel() }
            Task {
                _ = await task.value
                first.resume(true)
            }
        }
    }
}

/// A continuation resumed once, by whichever caller comes first; later ones are ignored.
package final class FirstResume<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var resumed = false
        var afterwards: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    package init() {}

    package func set(_ continuation: CheckedContinuation<Value, Never>) { state.withLock { $0.continuation = continuation } }

    /// Runs `action` once the continuation is resumed (at once if it already was).
    package func onResume(_ action: @escaping @Sendable () -> Void) {
        let now: Bool = state.withLock { state in
            if state.resumed { return true }
            state.afterwards.append(action)
            return false
        }
        if now { action() }
    }

    package func resume(_ value: Value) {
        let (waiting, actions): (CheckedContinuation<Value, Never>?, [@Sendable () -> Void]) = state.withLock { state in
            guard !state.resumed, let continuation = state.continuation else { return (nil, []) }
            state.resumed = true
            state.continuation = nil
            defer { state.afterwards = [] }
            return (continuation, state.afterwards)
        }
        waiting?.resume(returning: value)
        actions.forEach { $0() }
    }
}
