import Foundation

/// Sends requests through a ``FirebaseHTTPTransport`` with a per-attempt time limit and the
/// ``FirebaseRetryPolicy``. Every service client funnels its requests through one of these,
/// so the timeout and retry rules are the same for every Firebase service.
struct RequestSender: Sendable {
  let options: FirebaseHTTPOptions

  init(_ options: FirebaseHTTPOptions) { self.options = options }

  func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse {
    var request = request
    for (name, value) in options.additionalHeaders where request.header(name) == nil {
      request.headers[name] = value
    }
    let timeout = request.timeout ?? options.timeout
    request.timeout = timeout
    let policy = options.retryPolicy
    var retry = 0
    while true {
      let mayRetry = request.method.isIdempotentRead && retry < policy.maxRetries
      let response: FirebaseHTTPResponse
      do {
        response = try await Self.sendOnce(request, over: options.transport, timeout: timeout)
      } catch let error as FirebaseTransportError {
        guard mayRetry, case .network = error else { throw error }
        retry += 1
        try await policy.sleep(policy.backoff(forRetry: retry))
        continue
      }
      guard mayRetry, policy.retryableStatuses.contains(response.status) else { return response }
      let delay: Duration
      if let requested = FirebaseRetryPolicy.retryAfter(response.header("Retry-After")) {
        guard requested <= policy.maxRetryAfter else { return response }
        delay = requested
      } else {
        delay = policy.backoff(forRetry: retry + 1)
      }
      retry += 1
      try await policy.sleep(delay)
    }
  }

  /// One attempt, raced against a timer.
  ///
  /// The transport runs in an unstructured task so that a transport ignoring cancellation
  /// still cannot hold the caller past the deadline (a task group would wait for it).
  static func sendOnce(
    _ request: FirebaseHTTPRequest,
    over transport: any FirebaseHTTPTransport,
    timeout: Duration
  ) async throws -> FirebaseHTTPResponse {
    let race = Race()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        race.install(continuation)
        let work = Task {
          do {
            race.finish(.success(try await transport.send(request)))
          } catch let error as FirebaseTransportError {
            race.finish(.failure(error))
          } catch is CancellationError {
            race.finish(.failure(CancellationError()))
          } catch {
            race.finish(.failure(FirebaseTransportError.network(message: String(describing: error))))
          }
        }
        let timer = Task {
          try? await Task.sleep(for: timeout)
          if !Task.isCancelled { race.finish(.failure(FirebaseTransportError.timedOut(after: timeout))) }
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
  private var continuation: CheckedContinuation<FirebaseHTTPResponse, any Error>?
  private var early: Result<FirebaseHTTPResponse, any Error>?
  private var done = false
  private var tasks: [Task<Void, Never>] = []

  func install(_ continuation: CheckedContinuation<FirebaseHTTPResponse, any Error>) {
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

  func finish(_ result: Result<FirebaseHTTPResponse, any Error>) {
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

/// JSON encoding shared by every client: sorted keys so request bodies are byte-stable
/// (`JSONEncoder`'s key order is not stable on Linux otherwise).
func encodeJSONBody<T: Encodable>(_ value: T) throws -> Data {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  return try encoder.encode(value)
}
