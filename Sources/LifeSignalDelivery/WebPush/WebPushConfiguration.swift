import Foundation

/// The application server's identity for Web Push (RFC 8030, 8291, 8292) and how to reach
/// push services.
public struct WebPushConfiguration: Sendable, CustomStringConvertible {
    /// Signs every message's VAPID token; its public half is the pages' `applicationServerKey`.
    public var vapidKey: WebPushVAPIDKey
    /// The operator's contact, the VAPID token's `sub`: `mailto:ops@example.org` or an
    /// `https:` URL. Push services write to it when this server misbehaves.
    public var contact: String
    /// The longest one send may take.
    public var timeout: Duration
    /// Accepts `http://` endpoints on this machine (127.0.0.0/8, `::1`, `localhost`): a
    /// stand-in push service in tests. Off, as it must be in production, every endpoint is
    /// `https://`; `http://` anywhere else is refused either way.
    public var allowsInsecureLoopbackEndpoints: Bool

    public init(vapidKey: WebPushVAPIDKey, contact: String, timeout: Duration = .seconds(30), allowsInsecureLoopbackEndpoints: Bool = false) {
        self.vapidKey = vapidKey
        self.contact = contact
        self.timeout = timeout
        self.allowsInsecureLoopbackEndpoints = allowsInsecureLoopbackEndpoints
    }

    /// How long a VAPID token is valid: RFC 8292 allows at most 24 hours, and half of it leaves
    /// room for a push service whose clock is ahead of this one.
    public static let tokenLifetime: Duration = .seconds(12 * 60 * 60)
    /// A token is reused for its audience until it has this long left, then replaced.
    public static let tokenRenewalMargin: Duration = .seconds(60 * 60)

    /// Never the private key: configurations end up in logs.
    public var description: String { "Web Push as \(contact), \(vapidKey)" }
}
