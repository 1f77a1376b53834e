import Foundation

/// Why a Web Push message was not sent.
///
/// ``isSubscriptionGone`` says whether to delete the subscription (the push service answered
/// 404 or 410), ``isTransient`` whether sending again later may succeed, and ``retryAfter``
/// how long the push service asked to wait first.
public enum WebPushError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The subscription cannot be used as it is: a `p256dh` or `auth` that is not base64url or
    /// not the right length, a `p256dh` that is not a point on P-256, an endpoint that is not
    /// `https://host…`. Nothing was sent.
    case invalidSubscription(String)
    /// The message cannot be sent as it is (a negative TTL, a topic that is not 1 to 32
    /// base64url characters). Nothing was sent.
    case invalidMessage(String)
    /// The payload has `bytes` bytes, over the `limit` that fits one encrypted record of 4096
    /// bytes (3993). Nothing was sent.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The configuration cannot work: a VAPID key that is not a P-256 private key, a contact
    /// that is not `mailto:` or `https:`.
    case invalidConfiguration(String)
    /// The push service answered 404 or 410: the subscription expired or the user revoked it.
    /// Delete it; sending to it again cannot succeed.
    case subscriptionGone(status: Int)
    /// The push service answered 413 to an encrypted body of `bytes` bytes.
    case bodyTooLarge(bytes: Int)
    /// The push service answered 429 or 5xx: try again later, after `retryAfter` when it said
    /// (`Retry-After`).
    case unavailable(status: Int, retryAfter: Duration?, reason: String)
    /// The push service refused the message for good: 400, 401 or 403 (a VAPID token it does
    /// not accept, a VAPID key other than the one the subscription was made with), or another
    /// answer that is neither success nor one of the above.
    case refused(status: Int, reason: String)
    /// No answer: the connection failed, broke or timed out.
    case transport(String)

    /// The HTTP status the push service answered, if it answered.
    public var status: Int? {
        switch self {
        case .subscriptionGone(let status), .unavailable(let status, _, _), .refused(let status, _): status
        case .bodyTooLarge: 413
        case .invalidSubscription, .invalidMessage, .payloadTooLarge, .invalidConfiguration, .transport: nil
        }
    }

    /// Whether sending the same message again later may succeed: 429, 5xx, and no answer at
    /// all. Everything else is final for this message.
    public var isTransient: Bool {
        switch self {
        case .unavailable, .transport: true
        case .invalidSubscription, .invalidMessage, .payloadTooLarge, .invalidConfiguration, .subscriptionGone, .bodyTooLarge, .refused: false
        }
    }

    /// Whether the subscription is dead (404, 410): the caller deletes it rather than send to
    /// it again.
    public var isSubscriptionGone: Bool {
        if case .subscriptionGone = self { return true }
        return false
    }

    /// Whether the message is too large, found here (``payloadTooLarge(bytes:limit:)``) or by
    /// the push service (``bodyTooLarge(bytes:)``).
    public var isPayloadTooLarge: Bool {
        switch self {
        case .payloadTooLarge, .bodyTooLarge: true
        default: false
        }
    }

    /// How long the push service asked to wait before the next attempt (`Retry-After`).
    public var retryAfter: Duration? {
        if case .unavailable(_, let retryAfter, _) = self { return retryAfter }
        return nil
    }

    public var description: String {
        switch self {
        case .invalidSubscription(let reason): "The Web Push subscription cannot be used: \(reason)"
        case .invalidMessage(let reason): "The Web Push message cannot be sent: \(reason)"
        case .payloadTooLarge(let bytes, let limit): "The Web Push payload has \(bytes) bytes, over the \(limit) that fit one record"
        case .invalidConfiguration(let reason): "The Web Push configuration cannot work: \(reason)"
        case .subscriptionGone(let status): "The push service no longer knows the subscription (\(status))"
        case .bodyTooLarge(let bytes): "The push service refused a body of \(bytes) bytes as too large (413)"
        case .unavailable(let status, let retryAfter, let reason):
            "The push service is unavailable (\(status)\(retryAfter.map { ", retry after \($0)" } ?? "")): \(reason)"
        case .refused(let status, let reason): "The push service refused the message (\(status)): \(reason)"
        case .transport(let reason): "The push service could not be reached: \(reason)"
        }
    }
}
