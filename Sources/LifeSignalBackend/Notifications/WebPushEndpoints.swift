import Foundation
import LifeSignalDomain

/// Which push services a browser's Web Push subscription may name: the server POSTs to a
/// subscription's endpoint, so an endpoint anywhere else (an address inside the operator's
/// network, a metadata service) would let anyone with an account make the server send
/// requests there. Only the browsers' own push services are accepted unless the operator adds
/// more (a test's stand-in on 127.0.0.1, a self-hosted service).
public struct WebPushEndpoints: Sendable, Hashable {
    /// Host names, or suffixes starting with a dot (`.notify.windows.com`).
    public var hosts: [String]
    /// Plain `http` to 127.0.0.1 or localhost, for a test's stand-in; never https-less elsewhere.
    public var allowsLoopbackHTTP: Bool

    /// Chrome, Edge and Android (FCM), Firefox (Mozilla autopush), Safari (Apple), Windows (WNS).
    public static let browsers: [String] = ["fcm.googleapis.com", "updates.push.services.mozilla.com", "web.push.apple.com", ".notify.windows.com"]

    public init(hosts: [String] = browsers, allowsLoopbackHTTP: Bool = false) {
        self.hosts = hosts.map { $0.lowercased() }
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
    }

    /// Whether a `web` token is a Web Push subscription (JSON) rather than FCM's registration
    /// token for a browser (which never starts with a brace).
    public static func isSubscription(_ token: String) -> Bool { token.hasPrefix("{") }

    /// A browser's subscription as `PushSubscription.toJSON()` gives it.
    public struct Subscription: Codable, Sendable, Hashable {
        public struct Keys: Codable, Sendable, Hashable {
            public var p256dh: String
            public var auth: String
        }
        public var endpoint: String
        public var keys: Keys
    }

    /// Checks a subscription as the browser gives it (`{"endpoint": …, "keys": {"p256dh": …,
    /// "auth": …}}`) and returns it re-encoded with those fields only, so the stored token is
    /// one canonical text per subscription.
    public func validate(_ token: String) throws(DomainError) -> String {
        let subscription = try subscription(token)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(subscription) else { throw .invalidArgument("The subscription cannot be stored") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The subscription a token holds, when it is one this server sends to.
    public func subscription(_ token: String) throws(DomainError) -> Subscription {
        guard let subscription = try? JSONDecoder().decode(Subscription.self, from: Data(token.utf8)) else {
            throw .invalidArgument("A Web Push subscription is the browser's JSON: {\"endpoint\": …, \"keys\": {\"p256dh\": …, \"auth\": …}}")
        }
        guard let url = URL(string: subscription.endpoint), let host = url.host?.lowercased(), url.user == nil, url.password == nil else {
            throw .invalidArgument("The subscription's endpoint is not a URL")
        }
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(host)
        switch url.scheme?.lowercased() {
        case "https": break
        case "http" where allowsLoopbackHTTP && loopback: break
        default: throw .invalidArgument("The subscription's endpoint must be https")
        }
        guard (allowsLoopbackHTTP && loopback) || hosts.contains(where: { $0.hasPrefix(".") ? host.hasSuffix($0) : host == $0 }) else {
            throw .invalidArgument("The subscription's endpoint is not a push service this server sends to (\(host))")
        }
        guard let p256dh = Base64URL.decode(subscription.keys.p256dh), p256dh.count == 65, p256dh.first == 4,
            let auth = Base64URL.decode(subscription.keys.auth), auth.count == 16
        else { throw .invalidArgument("The subscription's keys are not a P-256 key and a 16-byte secret") }
        return subscription
    }
}
