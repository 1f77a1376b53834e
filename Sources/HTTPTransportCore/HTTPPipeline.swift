import Foundation

/// Sends requests through an ``HTTPTransport`` with a per-attempt time limit and the
/// ``RetryPolicy``. Every service client funnels its requests through one of these, so the
/// timeout and retry rules are the same for PostgREST, Functions and Auth.
struct HTTPPipeline: Sendable {
  let transport: any HTTPTransport
  let retryPolicy: RetryPolicy
  /// Applied to requests that do not carry their own ``HTTPRequest/timeout``.
  let defaultTimeout: Duration

  func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var retry = 0
    let timeout = request.timeout ?? defaultTimeout
    while true {
      var attempt = request
      attempt.timeout = timeout
      if retry > 0 { attempt.headers["X-Retry-Count"] = String(retry) }
      let mayRetry = request.method.isIdempotentRead && retry < retryPolicy.maxRetries

      let response: HTTPResponse
      do {
        response = try await Self.sendOnce(attempt, over: transport, timeout: timeout)
      } catch let error as TransportError {
        guard mayRetry, case .network = error else { throw error }
        retry += 1
        try await retryPolicy.sleep(retryPolicy.backoff(forRetry: retry))
        continue
      }

      guard mayRetry, retryPolicy.retryableStatuses.contains(response.status) else {
        return response
      }
      let delay: Duration
      if let requested = RetryPolicy.retryAfter(response.headers["Retry-After"]) {
        guard requested <= retryPolicy.maxRetryAfter else { return response }
        delay = requested
      } else {
        delay = retryPolicy.backoff(forRetry: retry + 1)
      }
      retry += 1
      try await retryPolicy.sleep(delay)
    }
  }

  /// One attempt, raced against a timer.
  ///
  /// The transport runs in an unstructured task so that a transport ignoring cancellation
  /// still cannot hold the caller past the deadline (a task group would wait for it).
  static func sendOnce(
    _ request: HTTPRequest,
    over transport: any HTTPTransport,
    timeout: Duration
  ) async throws -> HTTPResponse {
    let race = Race()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        race.install(continuation)
        let work = Task {
          do {
            race.finish(.success(try await transport.send(request)))
          } catch let error as TransportError {
            race.finish(.failure(error))
          } catch is CancellationError {
            race.finish(.failure(CancellationError()))
          } catch {
            race.finish(.failure(TransportError.network(message: String(describing: error))))
          }
        }
        let timer = Task {
          try? await Task.sleep(for: timeout)
          if !Task.isCancelled { race.finish(.failure(TransportError.timedOut(after: timeout))) }
        }
        race.track(work, timer)
      }
    } onCancel: {
      race.finish(.failure(CancellationError()))
    }
  }
}

/// The first of "response", "timeout" and "caller cancelled" wins; the others are dropped.
private final class Race: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<HTTPResponse, any Error>?
  private var early: Result<HTTPResponse, any Error>?
  private var done = false
  private var tasks: [Task<Void, Never>] = []

  func install(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
    lock.lock()
    if let early {
      lock.unlock()
      continuation.resume(with: early)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  func track(_ tasks: Task<Void, Never>...) {
    lock.lock()
    let finished = done
    if !finished { self.tasks = tasks }
    lock.unlock()
    if finished { tasks.forEach { $0.cancel() } }
  }

  func finish(_ result: Result<HTTPResponse, any Error>) {
    lock.lock()
    guard !done else {
      lock.unlock()
      return
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
  }
}
