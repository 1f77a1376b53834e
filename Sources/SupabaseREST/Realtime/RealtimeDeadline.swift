import Foundation

/// The first of several outcomes wins; the others are dropped.
///
/// Realtime waits on things that may never happen — a socket that never opens, a reply that
/// never comes — so every wait is raced against a timer. The work runs in unstructured tasks
/// so that work ignoring cancellation still cannot hold the caller past its deadline (a task
/// group would wait for it), the same reasoning as ``HTTPPipeline/sendOnce(_:over:timeout:)``.
final class RealtimeOneShot<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Value, any Error>?
  private var early: Result<Value, any Error>?
  private var done = false
  private var tasks: [Task<Void, Never>] = []

  /// Waits for the outcome. `start` runs once the waiter is in place; it may finish the
  /// shot at once.
  func wait(_ start: () -> Void) async throws -> Value {
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        install(continuation)
        start()
      }
    } onCancel: {
      finish(.failure(CancellationError()))
    }
  }

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

  /// Tasks to cancel once an outcome is known.
  func track(_ newTasks: Task<Void, Never>...) {
    lock.lock()
    let finished = done
    if !finished { tasks += newTasks }
    lock.unlock()
    if finished { newTasks.forEach { $0.cancel() } }
  }

  /// Delivers `result` when no outcome is known yet.
  ///
  /// - Returns: whether this call decided the outcome.
  @discardableResult
  func finish(_ result: Result<Value, any Error>) -> Bool {
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

/// Runs `operation`, failing with `timeout()` when it takes longer than `limit`.
///
/// - Parameter discard: receives a result that arrives after the deadline (or after the
///   caller was cancelled), e.g. to close a socket that opened too late.
func withRealtimeDeadline<Value: Sendable>(
  _ limit: Duration,
  timeout: @escaping @Sendable () -> RealtimeError,
  discard: (@Sendable (Value) async -> Void)? = nil,
  _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
  let shot = RealtimeOneShot<Value>()
  return try await shot.wait {
    let work = Task {
      do {
        let value = try await operation()
        if !shot.finish(.success(value)) { await discard?(value) }
      } catch {
        shot.finish(.failure(error))
      }
    }
    let timer = Task {
      try? await Task.sleep(for: limit)
      if !Task.isCancelled { shot.finish(.failure(timeout())) }
    }
    shot.track(work, timer)
  }
}
