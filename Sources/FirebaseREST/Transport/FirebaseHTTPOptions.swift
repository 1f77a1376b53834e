import Foundation

/// When and how often idempotent requests are repeated.
///
/// Only `GET` is retried — repeating a `POST` could create a document or send a push twice —
/// and only on network errors and on statuses that say "try again later" (429, 503). The
/// delay doubles from ``baseDelay`` up to ``maxDelay`` with random jitter so that many
/// clients failing together do not retry in lock step; a `Retry-After` header replaces the
/// computed delay (up to ``maxRetryAfter``).
public struct FirebaseRetryPolicy: Sendable {
  /// The maximum number of retries after the first attempt.
  public var maxRetries: Int
  /// The delay before the first retry.
  public var baseDelay: Duration
  /// The cap on the exponential delay.
  public var maxDelay: Duration
  /// The statuses that are retried.
  public var retryableStatuses: Set<Int>
  /// The longest `Retry-After` the client is willing to wait; a longer one is not retried
  /// and the 429/503 response is returned to the caller as is.
  public var maxRetryAfter: Duration
  /// How the client waits between attempts; replace it in tests to skip the waiting.
  public var sleep: @Sendable (Duration) async throws -> Void

  /// Creates a policy.
  public init(
    maxRetries: Int = 2,
    baseDelay: Duration = .milliseconds(500),
    maxDelay: Duration = .seconds(8),
    retryableStatuses: Set<Int> = [429, 503],
    maxRetryAfter: Duration = .seconds(60),
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
  ) {
    self.maxRetries = max(0, maxRetries)
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.retryableStatuses = retryableStatuses
    self.maxRetryAfter = maxRetryAfter
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

  /// The delay a `Retry-After` header asks for (delta-seconds or an HTTP date), if any.
  /// Google front ends send it with 429 and 503 when they know how long to back off.
  static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
    guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Double(value), seconds >= 0 {
      return .milliseconds(Int64((seconds * 1000).rounded()))
    }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: value) else { return nil }
    return .milliseconds(Int64((max(0, date.timeIntervalSince(now)) * 1000).rounded()))
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
