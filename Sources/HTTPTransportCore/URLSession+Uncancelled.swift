import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLSession {
    /// `data(for:)` without ever cancelling the underlying `URLSessionTask`.
    ///
    /// On Linux, FoundationNetworking can trap ("Trying to remove a task that is not in the
    /// registry") when a task's cancel races its completion — which a stream that re-reads
    /// often and is then dropped, or a timeout firing as the response lands, makes likely. So
    /// the exchange runs in a task of its own that nobody cancels: a cancelled caller stops
    /// waiting at once with `CancellationError`, and the request ends by itself (its response,
    /// or the request's own timeout).
    ///
    /// ``URLSessionTransport`` sends through it; so does any other client of this package that
    /// talks to URLSession directly (the Twilio client).
    public func dataWithoutCancelling(for request: URLRequest) async throws -> (Data, URLResponse) {
        let outcome = FirstOutcome<(Data, URLResponse)>()
        return try await outcome.wait {
            // Not tracked: the outcome must never cancel this task.
            Task {
                do {
                    outcome.finish(.success(try await self.data(for: request)))
                } catch {
                    outcome.finish(.failure(error))
                }
            }
        }
    }
}
