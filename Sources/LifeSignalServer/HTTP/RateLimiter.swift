import Foundation
import Hummingbird
import LifeSignalBackend

/// A token bucket per key: per person, 100 requests a minute sustained with bursts of up to
/// 200, as the original specification states; per client address for anonymous requests
/// (``ClientLimits``). Time comes from the backend's clock, so tests drive it.
actor RateLimiter {
    struct Bucket {
        var tokens: Double
        var updated: Date
    }

    let capacity: Double
    let refillPerSecond: Double
    private var buckets: [String: Bucket] = [:]
    private var lastPrune = Date.distantPast
    /// Keys kept before pruning starts, and the most kept after it: a stranger with many
    /// addresses (an IPv6 block, a botnet) must not grow the table without bound, nor make
    /// every request pay for a pass over it.
    static let pruneAbove = 100_000
    static let keepAtMost = 200_000

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
            if buckets.count > Self.pruneAbove, now.timeIntervalSince(lastPrune) >= 1 || now < lastPrune { prune(now: now) }
        }
        guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / refillPerSecond }
        bucket.tokens -= 1
        return nil
    }

    /// Forgets buckets that have refilled completely: they hold no information. At most once
    /// a second; if more than ``keepAtMost`` keys are still partly drained, arbitrary ones go
    /// (each gets a fresh burst, which only someone holding that many addresses can use).
    private func prune(now: Date) {
        lastPrune = now
        buckets = buckets.filter { capacity - ($0.value.tokens + now.timeIntervalSince($0.value.updated) * refillPerSecond) > 0 }
        if buckets.count > Self.keepAtMost { buckets = Dictionary(uniqueKeysWithValues: buckets.prefix(Self.pruneAbove).map { ($0.key, $0.value) }) }
    }
}

/// Applies ``RateLimiter``: signed-in callers by their user id (100 a minute, bursts of 200),
/// everyone else by client address (``ClientLimits``); a 429 carries `Retry-After`.
/// Service-role callers are not limited, and neither are health, readiness and metrics.
/// Who the caller is comes from the context (``AuthenticationMiddleware``, ``APIKeyMiddleware``
/// run first), so no token is verified here.
struct RateLimitMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    let limiter: RateLimiter
    let anonymousLimiter: RateLimiter
    let addresses: ClientAddressResolver
    let clock: BackendClock

    init(clock: BackendClock, limits: ClientLimits, limiter: RateLimiter = RateLimiter()) {
        self.limiter = limiter
        self.anonymousLimiter = RateLimiter(perMinute: limits.anonymousPerMinute, burst: limits.anonymousBurst)
        self.addresses = ClientAddressResolver(trustedProxies: limits.trustedProxies)
        self.clock = clock
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let bearer = context.authentication.claims
        let key: String
        let bucket: RateLimiter
        if let bearer, bearer.role == DatabaseRole.authenticated.rawValue, let subject = bearer.sub {
            (key, bucket) = (subject, limiter)
        } else if bearer?.role == DatabaseRole.serviceRole.rawValue || (bearer == nil && context.apiKeyRole == .serviceRole) {
            return try await next(request, context)
        } else if let address = addresses.clientAddress(peer: context.remoteAddress, headers: request.headers) {
            // No valid user token: an invalid or expired one counts as anonymous here, or a
            // stranger could step round the limit by sending garbage tokens.
            (key, bucket) = (address, anonymousLimiter)
        } else {
            return try await next(request, context)
        }
        if let wait = await bucket.take(key, now: clock.now()) {
            let seconds = String(max(1, Int(wait.rounded(.up))))
            return JSONResponse.error(
                .tooManyRequests, code: "over_request_rate_limit",
                message: "Too many requests; retry in \(seconds) s", headers: [.retryAfter: seconds])
        }
        return try await next(request, context)
    }
}
