import Foundation

/// Why a notification was not sent through APNs.
public enum APNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// APNs answered `status` with its `reason` (`BadDeviceToken`, `Unregistered`,
    /// `TooManyRequests`, …); for 410 `Unregistered`, `timestamp` is when the token stopped
    /// being valid.
    case refused(status: Int, reason: String, timestamp: Date?)
    /// No connection, or it broke before an answer.
    case connection(String)
    /// The TLS handshake failed (an untrusted certificate among them): nothing was sent.
    case tls(String)
    case timedOut(after: Duration)
    /// The notification cannot be sent as it is (not a hex device token, a payload over
    /// 4 KiB, a collapse id over 64 bytes…); nothing was sent.
    case invalidRequest(String)
    /// The configuration cannot work (a signing key that is not a P-256 PEM key, a bad
    /// certificate to trust, a base URL that is not https).
    case invalidConfiguration(String)

    /// The HTTP status APNs answered, if it answered.
    public var status: Int? {
        if case .refused(let status, _, _) = self { return status }
        return nil
    }

    /// Apple's `reason`, if APNs answered.
    public var reason: String? {
        if case .refused(_, let reason, _) = self { return reason }
        return nil
    }

    /// Whether sending again later may succeed: 429, 500, 503, timeouts and lost connections.
    /// Anything else APNs refused is final for this notification.
    public var isTransient: Bool {
        switch self {
        case .refused(let status, _, _): status == 429 || status == 500 || status == 503
        case .connection, .timedOut: true
        case .tls, .invalidRequest, .invalidConfiguration: false
        }
    }

    /// Whether the device token is dead for this app (410 `Unregistered`, 400 `BadDeviceToken`
    /// or `DeviceTokenNotForTopic`): the caller should drop it rather than send to it again.
    public var isUnregistered: Bool {
        switch self {
        case .refused(410, _, _): true
        case .refused(400, "BadDeviceToken", _), .refused(400, "DeviceTokenNotForTopic", _): true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .refused(let status, let reason, _): "APNs refused the notification (\(status) \(reason))"
        case .connection(let reason): "APNs could not be reached: \(reason)"
        case .tls(let reason): "APNs TLS failed: \(reason)"
        case .timedOut(let after): "APNs did not answer within \(after)"
        case .invalidRequest(let reason): "The notification cannot be sent: \(reason)"
        case .invalidConfiguration(let reason): "The APNs configuration cannot work: \(reason)"
        }
    }
}
