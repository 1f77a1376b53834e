import Foundation

/// Listening over REST, by polling.
///
/// Firestore's realtime `Listen` exists only over gRPC and WebChannel, neither of which the
/// REST surface offers, so these streams re-read the document (or re-run the query) every
/// `interval` and yield **only when the result differs** from the last one yielded (the
/// first result is always yielded). Changes between two polls that cancel out are never seen,
/// and each poll is a billed read. A failed poll ends the stream with that error; restart it
/// after backing off. Cancelling the consuming task (or dropping the stream) stops polling.
extension FirestoreClient {
    /// Polls a document; yields `nil` while it does not exist.
    public func listenDocument(
        _ path: String,
        interval: Duration = .seconds(5),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) -> AsyncThrowingStream<FirestoreDocument?, any Error> {
        let client = self
        return pollingStream(interval: interval, sleep: sleep) { try await client.documentIfExists(path) }
    }

    /// Polls a query; yields the whole result set each time it changes.
    public func listenQuery(
        _ query: FirestoreQuery,
        parent: String? = nil,
        interval: Duration = .seconds(5),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) -> AsyncThrowingStream<[FirestoreDocument], any Error> {
        let client = self
        return pollingStream(interval: interval, sleep: sleep) { try await client.runQuery(query, parent: parent) }
    }
}

/// Calls `fetch` now and then every `interval`, yielding results that differ from the
/// previous yield.
func pollingStream<T: Equatable & Sendable>(
    interval: Duration,
    sleep: @escaping @Sendable (Duration) async throws -> Void,
    fetch: @escaping @Sendable () async throws -> T
) -> AsyncThrowingStream<T, any Error> {
    AsyncThrowingStream { continuation in
        let task = Task {
            var last: T?
            do {
                while !Task.isCancelled {
                    let value = try await fetch()
                    if last != value {
                        last = value
                        continuation.yield(value)
                    }
                    try await sleep(interval)
                }
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
    }
}
