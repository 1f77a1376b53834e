import Foundation
import HTTPTransportCore
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the push service said when it took a message.
public struct WebPushReceipt: Sendable, Hashable {
    /// 201 Created, as a rule.
    public let status: Int
    /// `Location`: the push message's resource at the push service (RFC 8030 §5), if it gave one.
    public let location: URL?
}

/// Sends Web Push messages (RFC 8030) to browsers' push services: each message encrypted for
/// its subscription (RFC 8291, `aes128gcm`), each request carrying a VAPID token (RFC 8292);
/// one `POST` to the subscription's endpoint per message.
///
/// Every failure is a ``WebPushError``: ``WebPushError/isSubscriptionGone`` says to delete the
/// subscription, ``WebPushError/isTransient`` whether to try again later, and
/// ``WebPushError/retryAfter`` how long the push service asked to wait.
public struct WebPushClient: Sendable {
    public typealias Exchange = @Sendable (URLRequest) async throws -> (Data, URLResponse)

    public let configuration: WebPushConfiguration
    private let exchange: Exchange
    private let now: @Sendable () -> Date
    private let tokens = TokenCache()

    /// - Parameters:
    ///   - exchange: sends one request; URLSession by default (tests record or alter requests).
    ///   - now: the wall clock the VAPID tokens' `exp` and reuse read (tests move it).
    /// - Throws: ``WebPushError/invalidConfiguration(_:)``: the contact is not `mailto:…` or
    ///   `https://…`, or the timeout is not positive.
    public init(configuration: WebPushConfiguration, exchange: Exchange? = nil, now: @escaping @Sendable () -> Date = { Date() }) throws(WebPushError) {
        let contact = configuration.contact
        let isMail = contact.lowercased().hasPrefix("mailto:") && contact.utf8.count > "mailto:".utf8.count
        let isWeb = contact.lowercased().hasPrefix("https://") && URL(string: contact)?.host.map { !$0.isEmpty } == true
        guard isMail || isWeb, !contact.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw .invalidConfiguration("the contact (VAPID `sub`) is a mailto: address or an https: URL, not \(contact.prefix(200))")
        }
        guard configuration.timeout > .zero else { throw .invalidConfiguration("the timeout must be positive") }
        self.configuration = configuration
        self.exchange = exchange ?? { try await URLSession.shared.dataWithoutCancelling(for: $0) }
        self.now = now
    }

    /// Encrypts `message` for `subscription` and posts it to the subscription's endpoint.
    ///
    /// Nothing is sent when the message or subscription cannot go out as they are (a payload
    /// over ``WebPushMessage/maximumPayloadBytes``, a bad topic, an endpoint that is not https).
    ///
    /// - Returns: the push service's receipt (any 2xx).
    /// - Throws: a ``WebPushError``.
    @discardableResult
    public func send(_ message: WebPushMessage, to subscription: WebPushSubscription) async throws(WebPushError) -> WebPushReceipt {
        let request = try makeRequest(message, to: subscription, encryption: WebPushEncryption())
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await exchange(request)
        } catch {
            throw .transport(String(describing: error))
        }
        guard let http = response as? HTTPURLResponse else { throw .transport("not an HTTP response") }
        return try Self.outcome(http, body: data, bodyBytes: request.httpBody?.count ?? 0, endpoint: subscription.endpoint, now: now())
    }

    /// The request for `message`, encrypted with `encryption`: everything ``send(_:to:)`` does
    /// before the exchange.
    func makeRequest(_ message: WebPushMessage, to subscription: WebPushSubscription, encryption: WebPushEncryption) throws(WebPushError) -> URLRequest {
        try message.validate()
        let scheme = subscription.endpoint.scheme?.lowercased()
        guard scheme == "https" || (scheme == "http" && configuration.allowsInsecureLoopbackEndpoints && subscription.isLoopback) else {
            let reason =
                scheme == "http" && subscription.isLoopback
                ? "an http endpoint on this machine, which only a configuration that allows insecure loopback endpoints accepts"
                : "an endpoint that is not https"
            throw .invalidSubscription(reason)
        }
        let body = try encryption.encrypt(message.payload, for: subscription)
        let jwt = try token(for: subscription.audience)
        var request = URLRequest(url: subscription.endpoint)
        request.httpMethod = "POST"
        let timeout = configuration.timeout.components
        request.timeoutInterval = TimeInterval(timeout.seconds) + TimeInterval(timeout.attoseconds) / 1e18
        request.setValue("vapid t=\(jwt), k=\(configuration.vapidKey.publicKeyBase64URL)", forHTTPHeaderField: "Authorization")
        request.setValue("aes128gcm", forHTTPHeaderField: "Content-Encoding")
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        request.setValue(String(message.timeToLive.components.seconds), forHTTPHeaderField: "TTL")
        request.setValue(message.urgency.rawValue, forHTTPHeaderField: "Urgency")
        if let topic = message.topic { request.setValue(topic, forHTTPHeaderField: "Topic") }
        request.httpBody = body
        return request
    }

    /// VAPID tokens signed so far (tests check reuse and renewal).
    var vapidTokensIssued: Int { tokens.issued }

    /// The VAPID token for `audience`: the cached one until it has less than
    /// ``WebPushConfiguration/tokenRenewalMargin`` left, then a new one valid for
    /// ``WebPushConfiguration/tokenLifetime``.
    func token(for audience: String) throws(WebPushError) -> String {
        let now = now()
        let key = configuration.vapidKey
        let subject = configuration.contact
        return try tokens.token(for: audience, now: now) { () throws(WebPushError) -> (String, Date) in
            // Whole seconds, as `exp` is written.
            let lifetime = TimeInterval(WebPushConfiguration.tokenLifetime.components.seconds)
            let expires = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + lifetime).rounded(.down))
            return (try key.token(audience: audience, expires: expires, subject: subject), expires)
        }
    }

    /// Sorts the push service's answer: 2xx taken, 404/410 gone, 413 too large, 429/5xx
    /// unavailable (with `Retry-After`), anything else refused.
    static func outcome(_ response: HTTPURLResponse, body: Data, bodyBytes: Int, endpoint: URL, now: Date) throws(WebPushError) -> WebPushReceipt {
        let status = response.statusCode
        let reason = { String(decoding: body.prefix(300), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
        switch status {
        case 200..<300:
            let location = response.value(forHTTPHeaderField: "Location").flatMap { URL(string: $0, relativeTo: endpoint)?.absoluteURL }
            return WebPushReceipt(status: status, location: location)
        case 404, 410:
            throw .subscriptionGone(status: status)
        case 413:
            throw .bodyTooLarge(bytes: bodyBytes)
        case 429, 500...599:
            let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { retryAfterDuration($0, now: now) }
            throw .unavailable(status: status, retryAfter: retryAfter, reason: reason())
        default:
            throw .refused(status: status, reason: reason())
        }
    }

    /// `Retry-After` (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date (counted from `now`,
    /// zero if already past).
    static func retryAfterDuration(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return Int(text).map { .seconds($0) } ?? .seconds(Int.max)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: text) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }

    /// The VAPID tokens in use, one per audience (push service origin), shared by the copies of
    /// a client.
    private final class TokenCache: Sendable {
        private struct Entry {
            let jwt: String
            let expires: Date
        }

        private struct State {
            var entries: [String: Entry] = [:]
            var issued = 0
        }

        private let state = Mutex(State())

        var issued: Int { state.withLock { $0.issued } }

        func token(for audience: String, now: Date, make: () throws(WebPushError) -> (String, Date)) throws(WebPushError) -> String {
            try state.withLock { (state: inout State) throws(WebPushError) -> String in
                let margin = TimeInterval(WebPushConfiguration.tokenRenewalMargin.components.seconds)
                let lifetime = TimeInterval(WebPushConfiguration.tokenLifetime.components.seconds)
                // Reused while it has more than the margin left; a token from the future (the
                // clock went back) is replaced too.
                if let entry = state.entries[audience], now < entry.expires - margin, entry.expires <= now + lifetime {
                    return entry.jwt
                }
                let (jwt, expires) = try make()
                // Few audiences (one per push service), but never an unbounded map.
                state.entries = state.entries.filter { $0.value.expires - margin > now }
                if state.entries.count >= 64 { state.entries.removeAll() }
                state.entries[audience] = Entry(jwt: jwt, expires: expires)
                state.issued += 1
                return jwt
            }
        }
    }
}
