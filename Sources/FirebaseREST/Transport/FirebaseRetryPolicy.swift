import Foundation

/// When and how often idempotent requests are repeated.
///
/// Only `GET` is retried — repeating a `POST` could create a document or send a push twice —
/// and only on network errors and on statuses that say "try again later" (429, 503). The
/// delay doubles from ``baseDelay`` up to ``maxDelay`` with random jitter so that many
/// clients failing together do not retry in lock step.
public struct FirebaseRetryPolicy: Sendable {
  /// The maximum number of retries after the first attempt.
  public var maxRetries: Int
  /// The delay before the first retry.
  public var baseDelay: Duration
  /// The cap on the exponential delay.
  public var maxDelay: Duration
  /// The statuses that are retried.
  public var retryableStatuses: Set<Int>
  /// How the client waits between attempts; replace it in tests to skip the waiting.
  public var sleep: @Sendable (Duration) async throws -> Void

  /// Creates a policy.
  public init(
    maxRetries: Int = 2,
    baseDelay: Duration = .milliseconds(500),
    maxDelay: Duration = .seconds(8),
    retryableStatuses: Set<Int> = [429, 503],
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.maxRetries = max(0, maxRetries)
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.retryableStatuses = retryableStatuses
    self.sleep = sleep
  }

  /// Two retries, 0.5 s doubling up to 8 s.
  public static var `default`: FirebaseRetryPolicy { FirebaseRetryPolicy() }

  /// Never retry.
  public static var none: FirebaseRetryPolicy { FirebaseRetryPolicy(maxRetries: 0) }

  /// The capped exponential delay before retry number `retry` (1-based), ±25 % jitter.
  func backoff(forRetry retry: Int) -> Duration {
    let exponent = min(max(retry - 1, 0), 30)
    let raw = baseDelay.firebaseTimeInterval * pow(2, Double(exponent))
    let capped = min(raw, maxDelay.firebaseTimeInterval)
    let spread = Double.random(in: 0.75...1.25)
    return .milliseconds(Int64((capped * spread * 1000).rounded()))
  }
}

/// What every client shares about talking HTTP: the transport, the time limit and retries.
public struct FirebaseHTTPOptions: Sendable {
  /// The transport that moves the bytes.
  public var transport: any FirebaseHTTPTransport
  /// The per-attempt time limit. The library enforces it even when the transport does not.
  public var timeout: Duration
  /// Which requests are repeated, and how.
  public var retryPolicy: FirebaseRetryPolicy
  /// Headers added to every request (for example `X-Client-Version`,
  /// `X-Ios-Bundle-Identifier` for an iOS-restricted API key, or `X-Firebase-AppCheck`).
  public var additionalHeaders: [String: String]

  /// Creates options; the defaults are URLSession, 30 seconds, two retries of reads.
  public init(
    transport: any FirebaseHTTPTransport = FirebaseURLSessionTransport(),
    timeout: Duration = .seconds(30),
    retryPolicy: FirebaseRetryPolicy = .default,
    additionalHeaders: [String: String] = [:]
  ) {
    self.transport = transport
    self.timeout = timeout
    self.retryPolicy = retryPolicy
    self.additionalHeaders = additionalHeaders
  }
}
