import Foundation

/// What every Firebase client shares about talking HTTP: the transport, the time limit,
/// retries and extra headers. Each client sends through the ``HTTPPipeline`` these options
/// describe, so the rules are the same for every Firebase service.
public struct FirebaseHTTPOptions: Sendable {
    /// The transport that moves the bytes.
    public var transport: any HTTPTransport
    /// The per-attempt time limit. The library enforces it even when the transport does not.
    public var timeout: Duration
    /// Which requests are repeated, and how.
    public var retryPolicy: RetryPolicy
    /// Headers added to every request (for example `X-Client-Version`,
    /// `X-Ios-Bundle-Identifier` for an iOS-restricted API key, or `X-Firebase-AppCheck`).
    public var additionalHeaders: [String: String]

    /// Creates options; the defaults are URLSession, 30 seconds, two retries of reads
    /// (``RetryPolicy/firebase``).
    public init(
        transport: any HTTPTransport = URLSessionTransport(),
        timeout: Duration = .seconds(30),
        retryPolicy: RetryPolicy = .firebase,
        additionalHeaders: [String: String] = [:]
    ) {
        self.transport = transport
        self.timeout = timeout
        self.retryPolicy = retryPolicy
        self.additionalHeaders = additionalHeaders
    }

    /// The pipeline every client sends through. It numbers no retries in a header, as
    /// Firebase's own SDKs do not.
    var pipeline: HTTPPipeline {
        HTTPPipeline(
            transport: transport, retryPolicy: retryPolicy, defaultTimeout: timeout,
            defaultHeaders: HTTPHeaders(additionalHeaders))
    }
}

extension RetryPolicy {
    /// Firebase's policy: two retries of reads, 0.5 s doubling up to 8 s, on 429 and 503 only
    /// (the statuses Google front ends send when they want a client to back off).
    public static var firebase: RetryPolicy { RetryPolicy(maxRetries: 2, retryableStatuses: [429, 503]) }
}
