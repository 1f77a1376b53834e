import Foundation
import Testing

@testable import HTTPTransportCore

/// The policy's own decisions: the delay before each retry and what `Retry-After` asks for.
@Suite struct RetryPolicyTests {
    @Test func backoffDoublesWithJitterUpToTheCap() {
        let policy = RetryPolicy(baseDelay: .milliseconds(500), maxDelay: .seconds(1.5), jitter: 0.25)
        for (retry, base) in zip(1...6, [0.5, 1.0, 1.5, 1.5, 1.5, 1.5]) {
            // Many draws, so a spread outside ±25 % or a wrong base shows up.
            for _ in 0..<50 {
                let seconds = policy.backoff(forRetry: retry).timeInterval
                #expect(seconds >= base * 0.75 - 0.001 && seconds <= base * 1.25 + 0.001, "retry \(retry): \(seconds) around \(base)")
            }
        }
    }

    @Test func withoutJitterTheDelayIsExact() {
        let policy = RetryPolicy(baseDelay: .milliseconds(200), maxDelay: .seconds(1), jitter: 0)
        #expect((1...5).map { policy.backoff(forRetry: $0) } == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1)])
        // A huge retry number is capped, not an overflow.
        #expect(policy.backoff(forRetry: 10_000) == .seconds(1))
    }

    @Test func jitterAndRetriesAreClamped() {
        #expect(RetryPolicy(jitter: 3).jitter == 1)
        #expect(RetryPolicy(jitter: -1).jitter == 0)
        #expect(RetryPolicy(maxRetries: -2).maxRetries == 0)
        #expect(RetryPolicy.none.maxRetries == 0)
        #expect(RetryPolicy.default.maxRetries == 3 && RetryPolicy.default.retryableStatuses == [429, 503, 520])
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 1_717_588_800)
        #expect(RetryPolicy.retryAfter("2", now: now) == .seconds(2))
        #expect(RetryPolicy.retryAfter(" 1.5 ", now: now) == .milliseconds(1500))
        #expect(RetryPolicy.retryAfter("0", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("Wed, 05 Jun 2024 12:00:30 GMT", now: now) == .seconds(30))
        // A date in the past asks for no wait, not a negative one.
        #expect(RetryPolicy.retryAfter("Wed, 05 Jun 2024 11:00:00 GMT", now: now) == .zero)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter("-3", now: now) == nil)
        #expect(RetryPolicy.retryAfter("", now: now) == nil)
        #expect(RetryPolicy.retryAfter(nil, now: now) == nil)
    }
}
