import Foundation
import Hummingbird
import LifeSignalBackend

/// A token bucket per person: 100 requests a minute sustained, bursts of up to 200, as the
/// original specification states. Time comes from the backend's clock, so tests drive it.
actor RateLimiter {
    struct Bucket {
        var tokens: Double
        var updated: Date
    }

    let capacity: Double
    let refillPerSecond: Double
    private var buckets: [String: Bucket] = [:]

    init(perMinute: Double = 100, burst: Double = 200) {
        capacity = burst
        refillPerSecond = perMinute / 60
    }

    /// Takes one token for `key`; returns the seconds to wait when none is left.
    func take(_ key: String, now: Date) -> TimeInterval? {
        var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        bucket.tokens = min(capacity, bucket.tokens + elapsed * refillPerSecond)
        bucket.updated = now
        defer {
            buckets[key] = bucket
            if buckets.count > 100_000 { prune(now: now) }
        }
        guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / refillPerSecond }
        bucket.tokens -= 1
        return nil
    }

    /// Forgets buckets that have refilled completely: they hold no information.
    private func prune(now: Date) {
        buckets = buckets.filter { capacity - ($0.value.tokens + now.timeIntervalSince($0.value.updated) * refillPerSecond) > 0 }
    }
}

/// Applies ``RateLimiter`` to signed-in callers, keyed by their user id; a 429 carries
/// `Retry-After`. Requests without a user token are not limited here.
struct RateLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limiter: RateLimiter
    let auth: AuthService
    let clock: BackendClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let token = request.bearerToken, let claims = try? auth.verify(token), claims.role == "authenticated", let subject = claims.sub else {
            return try await next(request, context)
        }
        if let wait = await limiter.take(subject, now: clock.now()) {
            let seconds = String(Int(wait.rounded(.up)))
            return JSONResponse.error(.tooManyRequests, code: "over_request_rate_limit",
                                      message: "Too many requests; retry in \(seconds) s", headers: [.retryAfter: seconds])
        }
        return try await next(request, context)
    }
}
