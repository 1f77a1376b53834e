import Foundation

/// Limits per client address, and how the server tells one client from another.
///
/// Requests without a user's token (anonymous ones: sign-in, public reads) are limited per
/// client address, as signed-in ones are per person; a 429 `over_request_rate_limit` with
/// `Retry-After` answers past the limit. Requests under the `service_role` key are the
/// operator's own and are not limited. Health, readiness and metrics are never limited: a
/// load balancer or scraper asks from one address all day.
public struct ClientLimits: Sendable, Equatable {
    /// Anonymous requests one address may make per minute, sustained. Default: 300.
    public var anonymousPerMinute: Double
    /// Anonymous requests one address may make in a burst before the per-minute rate applies.
    /// Default: 600.
    public var anonymousBurst: Double
    /// Addresses of reverse proxies whose `X-Forwarded-For` is believed. Default: none, so
    /// the header is ignored and the socket's peer is the client. List only proxies that
    /// append the address they received from, or a client could name any address it likes.
    public var trustedProxies: [String]

    public init(anonymousPerMinute: Double = 300, anonymousBurst: Double = 600, trustedProxies: [String] = []) {
        self.anonymousPerMinute = anonymousPerMinute
        self.anonymousBurst = anonymousBurst
        self.trustedProxies = trustedProxies
    }
}
