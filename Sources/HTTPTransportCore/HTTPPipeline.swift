/// Sends requests through an ``HTTPTransport`` with a per-attempt time limit and a
/// ``RetryPolicy``.
///
/// Every service of a wire client funnels its requests through one pipeline, so the time
/// limit and the retry rules are the same for all of them, and the same for Supabase and
/// Firebase. What differs per wire client is configuration: its default headers, whether
/// retries are numbered in a header, its policy.
///
/// ```swift
/// let pipeline = HTTPPipeline(transport: URLSessionTransport(), retryPolicy: .default, defaultTimeout: .seconds(30))
/// let response = try await pipeline.send(HTTPRequest(method: .get, url: url))
/// ```
///
/// A response is returned whatever its status (after any retries); only a missing response
/// throws: ``TransportError``, or `CancellationError` when the caller is cancelled — at once,
/// even if the transport ignores cancellation.
public struct HTTPPipeline: Sendable {
    /// The transport that moves the bytes.
    public var transport: any HTTPTransport
    /// Which requests are repeated, and how.
    public var retryPolicy: RetryPolicy
    /// Applied to requests that do not carry their own ``HTTPRequest/timeout``.
    public var defaultTimeout: Duration
    /// A header that numbers each retry (`1`, `2`, …) so the server can tell retries apart in
    /// its logs (supabase-swift sends `X-Retry-Count`), or `nil` to send none.
    public var retryCountHeader: String?
    /// Headers added to every request that does not set them itself (for example
    /// `X-Client-Version` or an App Check token).
    public var defaultHeaders: HTTPHeaders

    /// Creates a pipeline.
    public init(
        transport: any HTTPTransport,
        retryPolicy: RetryPolicy = .default,
        defaultTimeout: Duration,
        retryCountHeader: String? = nil,
        defaultHeaders: HTTPHeaders = [:]
    ) {
        self.transport = transport
        self.retryPolicy = retryPolicy
        self.defaultTimeout = defaultTimeout
        self.retryCountHeader = retryCountHeader
        self.defaultHeaders = defaultHeaders
    }

    /// Sends `request`, retrying idempotent reads as ``retryPolicy`` says.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var request = request
        for field in defaultHeaders where request.headers[field.name] == nil {
            request.headers[field.name] = field.value
        }
        let timeout = request.timeout ?? defaultTimeout
        request.timeout = timeout
        var retry = 0
        while true {
            var attempt = request
            if retry > 0, let retryCountHeader { attempt.headers[retryCountHeader] = String(retry) }
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

    /// One attempt, raced against a timer: the first of "response", "timeout" and "caller
    /// cancelled" wins.
    ///
    /// An error the transport throws that is neither a ``TransportError`` nor a
    /// `CancellationError` (a `URLError` from a custom transport, …) becomes
    /// ``TransportError/network(message:)``, so callers see one error type whatever the
    /// transport.
    public static func sendOnce(
        _ request: HTTPRequest,
        over transport: any HTTPTransport,
        timeout: Duration
    ) async throws -> HTTPResponse {
        try await withDeadline(timeout, timeout: { TransportError.timedOut(after: timeout) }) {
            do {
                return try await transport.send(request)
            } catch let error as TransportError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                throw TransportError.network(message: String(describing: error))
            }
        }
    }
}
