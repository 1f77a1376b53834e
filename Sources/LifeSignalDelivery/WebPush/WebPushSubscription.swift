import Crypto
import Foundation

/// A browser's push subscription, as `PushSubscription.toJSON()` gives it: the push service's
/// `endpoint` and `keys.p256dh` / `keys.auth` (base64url, unpadded).
///
/// Made only through ``init(endpoint:p256dh:auth:)``, which checks the keys: `p256dh` is a
/// 65-byte uncompressed point on P-256, `auth` 16 bytes. Whether the endpoint's scheme is
/// acceptable is the client's call (``WebPushConfiguration/allowsInsecureLoopbackEndpoints``),
/// made on every send.
public struct WebPushSubscription: Sendable, Hashable {
    /// Where messages to this browser are posted (the push service's URL for it).
    public let endpoint: URL
    /// The user agent's ECDH public key: the 65-byte uncompressed P-256 point (`0x04 || x || y`).
    public let userAgentPublicKey: Data
    /// The 16-byte authentication secret the user agent made.
    public let authSecret: Data

    public static let userAgentPublicKeyBytes = 65
    public static let authSecretBytes = 16

    /// - Parameters:
    ///   - endpoint: the subscription's `endpoint`: `https://…` (or `http://` on loopback, which
    ///     only a client configured for tests accepts).
    ///   - p256dh: `keys.p256dh`, base64url.
    ///   - auth: `keys.auth`, base64url.
    /// - Throws: ``WebPushError/invalidSubscription(_:)``, saying which part is wrong.
    public init(endpoint: URL, p256dh: String, auth: String) throws(WebPushError) {
        guard let scheme = endpoint.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = endpoint.host, !host.isEmpty
        else {
            // Not the URL itself: an endpoint is a capability, kept out of logs.
            throw .invalidSubscription("the endpoint is not an https URL with a host")
        }
        guard let publicKey = WebPushBase64URL.decode(p256dh) else { throw .invalidSubscription("p256dh is not base64url") }
        guard publicKey.count == Self.userAgentPublicKeyBytes else {
            throw .invalidSubscription("p256dh has \(publicKey.count) bytes, not the \(Self.userAgentPublicKeyBytes) of an uncompressed P-256 point")
        }
        guard publicKey.first == 0x04, (try? P256.KeyAgreement.PublicKey(x963Representation: publicKey)) != nil else {
            throw .invalidSubscription("p256dh is not an uncompressed point on P-256")
        }
        guard let secret = WebPushBase64URL.decode(auth) else { throw .invalidSubscription("auth is not base64url") }
        guard secret.count == Self.authSecretBytes else {
            throw .invalidSubscription("auth has \(secret.count) bytes, not \(Self.authSecretBytes)")
        }
        self.endpoint = endpoint
        self.userAgentPublicKey = publicKey
        self.authSecret = secret
    }

    /// As ``init(endpoint:p256dh:auth:)``, with the endpoint as the browser's text.
    public init(endpoint: String, p256dh: String, auth: String) throws(WebPushError) {
        guard let url = URL(string: endpoint) else { throw .invalidSubscription("the endpoint is not a URL") }
        try self.init(endpoint: url, p256dh: p256dh, auth: auth)
    }

    /// `keys.p256dh` as the browser gave it (base64url, unpadded).
    public var p256dh: String { WebPushBase64URL.encode(userAgentPublicKey) }

    /// `keys.auth` as the browser gave it (base64url, unpadded).
    public var auth: String { WebPushBase64URL.encode(authSecret) }

    /// The endpoint's origin, `scheme://host[:port]` (the port only when it is not the
    /// scheme's default): the VAPID token's `aud`.
    public var audience: String {
        Self.origin(of: endpoint)
    }

    /// Whether the endpoint is on this machine (127.0.0.0/8, `::1`, `localhost`).
    var isLoopback: Bool {
        guard let host = endpoint.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else { return false }
        if host == "localhost" || host == "::1" { return true }
        // An IPv4 literal in 127.0.0.0/8 — not a name that merely starts with "127.".
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127"
            && parts.allSatisfy { part in !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part) ?? 256 <= 255 }
    }

    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? "https"
        var host = url.host?.lowercased() ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        let defaultPort = scheme == "https" ? 443 : 80
        guard let port = url.port, port != defaultPort else { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(port)"
    }
}
