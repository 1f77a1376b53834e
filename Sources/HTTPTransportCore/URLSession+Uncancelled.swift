import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Shared by the two wire clients (SupabaseREST, FirebaseREST), which otherwise depend on
/// nothing of each other.
extension URLSession {
  /// `data(for:)` without ever cancelling the underlying `URLSessionTask`.
  ///
  /// On Linux, FoundationNetworking can trap ("Trying to remove a task that is not in the
  /// registry") when a task's cancel races its completion — which a stream that re-reads
  /// often and is then dropped, or a timeout firing as the response lands, makes likely. So
  /// the exchange runs in a task of its own that nobody cancels: a cancelled caller stops
  /// waiting at once with `CancellationError`, and the request ends by itself (its response,
  /// or the request's own timeout).
  public func dataWithoutCancelling(for request: URLRequest) async throws -> (Data, URLResponse) {
    let waiter = ExchangeWaiter()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        waiter.install(continuation)
        Task {
          do {
            waiter.finish(.success(try await self.data(for: request)))
          } catch {
            waiter.finish(.failure(error))
          }
        }
      }
    } onCancel: {
      waiter.finish(.failure(CancellationError()))
    }
  }
}

/// The one continuation of ``URLSession/dataWithoutCancelling(for:)``, resumed by whichever
/// comes first: the exchange's result or the caller's cancellation (which can arrive before
/// the continuation is installed).
private final class ExchangeWaiter: @unchecked Sendable {
  private let lock = NSLock()
  private var continuation: CheckedContinuation<(Data, URLResponse), any Error>?
  private var outcome: Result<(Data, URLResponse), any Error>?

  func install(_ continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
    lock.lock()
    if let outcome {
      lock.unlock()
      continuation.resume(with: outcome)
      return
    }
    self.continuation = continuation
    lock.unlock()
  }

  func finish(_ result: Result<(Data, URLResponse), any Error>) {
    lock.lock()
    guard outcome == nil else {
      lock.unlock()
      return
    }
    outcome = result
    let continuation = self.continuation
    self.continuation = nil
    lock.unlock()
    continuation?.resume(with: result)
  }
}
