import Foundation

/// When and how often ``HTTPPipeline`` repeats a request.
///
/// Only idempotent reads (`GET`, `HEAD`) are retried — repeating a `POST` could insert a row,
/// create a document or send a push twice — and only on network errors and on statuses that
/// say "try again later". The delay doubles from ``baseDelay`` up to ``maxDelay``, spread by
/// ``jitter`` so that many clients failing together do not retry in lock step; a
/// `Retry-After` header replaces the computed delay, up to ``maxRetryAfter``.
///
/// The defaults are supabase-swift's (3 retries; 429, 503 and 520). FirebaseREST sets its own
/// (`RetryPolicy.firebase`: 2 retries; 429 and 503), since Google front ends never send 520.
public struct RetryPolicy: Sendable {
    /// The maximum number of retries after the first attempt.
    public var maxRetries: Int
    /// The delay before the first retry; it doubles on every further retry.
    public var baseDelay: Duration
    /// The cap on the exponential delay.
    public var maxDelay: Duration
    /// The random spread applied to each computed delay, as a fraction (0.25 = ±25 %).
    public var jitter: Double
    /// The statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// The longest `Retry-After` the client is willing to wait; a longer one is not retried
    /// and the 429/503 response is returned to the caller as is.
    public var maxRetryAfter: Duration
    /// How the client waits between attempts. Replace it in tests to observe the delays
    /// without spending them.
    public var sleep: @Sendable (Duration) async throws -> Void

    /// Creates a policy.
    public init(
        maxRetries: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        maxDelay: Duration = .seconds(8),
        jitter: Double = 0.25,
        retryableStatuses: Set<Int> = [429, 503, 520],
        maxRetryAfter: Duration = .seconds(60),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxRetries = max(0, maxRetries)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.retryableStatuses = retryableStatuses
        self.maxRetryAfter = maxRetryAfter
        self.sleep = sleep
    }

    /// supabase-swift's behaviour: 3 retries, 0.5 s doubling up to 8 s, ±25 % jitter.
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// Never retry.
    public static var none: RetryPolicy { RetryPolicy(maxRetries: 0) }

    /// The capped exponential delay before retry number `retry` (1-based), with jitter.
    public func backoff(forRetry retry: Int) -> Duration {
        let exponent = min(max(retry - 1, 0), 30)
        let raw = baseDelay.timeInterval * pow(2, Double(exponent))
        let capped = min(raw, maxDelay.timeInterval)
        let spread = jitter > 0 ? Double.random(in: (1 - jitter)...(1 + jitter)) : 1
        return .milliseconds(Int64((capped * spread * 1000).rounded()))
    }

    /// The delay a `Retry-After` header asks for (delta-seconds or an HTTP date), if any.
    /// Servers send it with 429 and 503 when they know how long to back off.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return nil
        }
        if let seconds = Double(value), seconds >= 0 {
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}
