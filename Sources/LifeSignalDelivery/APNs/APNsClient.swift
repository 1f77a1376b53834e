import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// Sends visible notifications straight to Apple Push Notification service: HTTP/2 (one
/// connection, many streams), token-based authentication with an ES256 provider JWT,
/// `POST /3/device/<token>` per notification.
///
/// The owner calls ``shutdown()`` when done: the client keeps its connection to Apple open
/// between sends, as Apple asks, and closing it is not something a `deinit` can wait for.
/// Every failure is an ``APNsError`` whose ``APNsError/isTransient`` says whether to try again
/// later and ``APNsError/isUnregistered`` whether to drop the device token.
public struct APNsClient: Sendable {
    public let configuration: APNsConfiguration
    private let lifetime: Lifetime
    private let token: APNsProviderToken
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// - Parameters:
    ///   - now: the wall clock the provider token's `iat` and renewal read, and the
    ///     expiration is counted from (tests move it).
    /// - Throws: ``APNsError/invalidConfiguration(_:)``: the key is not a P-256 PEM key, the
    ///   certificates to trust are not PEM, or the base URL is not `https://host`.
    public init(
        configuration: APNsConfiguration, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        now: @escaping @Sendable () -> Date = { Date() }, logger: Logger = Logger(label: "lifesignal.apns")
    ) throws {
        guard configuration.baseURL.scheme == "https", configuration.baseURL.host != nil else {
            throw APNsError.invalidConfiguration("APNs is reached over https, not \(configuration.baseURL.absoluteString)")
        }
        guard !configuration.topic.isEmpty, !configuration.keyID.isEmpty, !configuration.teamID.isEmpty else {
            throw APNsError.invalidConfiguration("a topic (bundle id), key id and team id are required")
        }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let pem = configuration.additionalTrustRootsPEM {
            let certificates = (try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))) ?? []
            guard !certificates.isEmpty else { throw APNsError.invalidConfiguration("the certificates to trust are not PEM certificates") }
            tls.additionalTrustRoots = [.certificates(certificates)]
        }
        token = try APNsProviderToken(configuration: configuration, now: now)
        let seconds = TimeAmount.seconds(configuration.timeout.components.seconds)
        // The pool retries a failed connection (refused, TLS) with backoff until the connect
        // timeout, and only then fails the send: 10 s is long enough to ride out a blip and
        // short enough that a wrong certificate or a closed port does not hold a send for the
        // whole timeout.
        let connect = TimeAmount.seconds(min(configuration.timeout, .seconds(10)).components.seconds)
        var http = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: connect, read: seconds))
        // ALPN offers h2 first; Apple's servers speak nothing else.
        http.httpVersion = .automatic
        self.configuration = configuration
        self.now = now
        self.logger = logger
        // Made last: once it exists it must be shut down, and nothing after this can throw.
        lifetime = Lifetime(HTTPClient(eventLoopGroup: eventLoopGroup, configuration: http, backgroundActivityLogger: logger))
    }

    /// Sends `notification` to the device with `deviceToken` (hex, as the app registered it).
    ///
    /// `id` goes out as `apns-id`: pass the caller's own record id (the delivery ledger's row)
    /// so a retry of the same notification carries the same id. A provider token APNs calls
    /// expired (403 `ExpiredProviderToken`) is replaced and the notification sent once more.
    ///
    /// - Returns: the `apns-id` APNs echoes.
    /// - Throws: an ``APNsError``.
    @discardableResult
    public func send(_ notification: APNsNotification, to deviceToken: String, id: UUID) async throws -> UUID {
        guard Self.isDeviceToken(deviceToken) else {
            throw APNsError.invalidRequest("a device token is an even number of hex digits (at most 200)")
        }
        let payload = try notification.payload()
        var jwt = try await providerToken { try await token.token() }
        do {
            return try await post(notification, payload: payload, to: deviceToken, id: id, jwt: jwt)
        } catch let error as APNsError where error.status == 403 && error.reason == "ExpiredProviderToken" {
            logger.info("APNs called the provider token expired; signing a new one and sending again")
            jwt = try await providerToken { [jwt] in try await token.replace(jwt) }
            return try await post(notification, payload: payload, to: deviceToken, id: id, jwt: jwt)
        }
    }

    /// Closes the connections and stops accepting sends; call once, when the owner stops.
    public func shutdown() async throws {
        try await lifetime.shutdown()
    }

    /// Provider tokens made so far (tests check reuse and renewal).
    var providerTokensIssued: Int {
        get async { await token.issuedCount }
    }

    private func providerToken(_ make: () async throws -> String) async throws -> String {
        do {
            return try await make()
        } catch let error as APNsError {
            throw error
        } catch {
            throw APNsError.invalidConfiguration("the provider token could not be signed: \(error)")
        }
    }

    private func post(_ notification: APNsNotification, payload: Data, to deviceToken: String, id: UUID, jwt: String) async throws -> UUID {
        var request = HTTPClientRequest(url: configuration.baseURL.absoluteString.trimmingSuffix("/") + "/3/device/\(deviceToken)")
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer \(jwt)")
        request.headers.add(name: "apns-topic", value: configuration.topic)
        request.headers.add(name: "apns-push-type", value: "alert")
        request.headers.add(name: "apns-priority", value: String(notification.priority))
        request.headers.add(name: "apns-expiration", value: expiration(notification.timeToLive))
        if let collapseID = notification.collapseID { request.headers.add(name: "apns-collapse-id", value: collapseID) }
        request.headers.add(name: "apns-id", value: id.uuidString.lowercased())
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: payload))
        let timeout = configuration.timeout
        let (status, headers, body): (Int, HTTPHeaders, ByteBuffer)
        do {
            let response = try await lifetime.client.execute(request, timeout: .seconds(timeout.components.seconds), logger: logger)
            body = try await response.body.collect(upTo: 64 * 1024)
            (status, headers) = (Int(response.status.code), response.headers)
        } catch {
            throw Self.mapped(error, timeout: timeout)
        }
        guard status == 200 else {
            let json = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
            let reason = json?["reason"] as? String ?? "HTTP \(status)"
            let timestamp = (json?["timestamp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue / 1000) }
            throw APNsError.refused(status: status, reason: reason, timestamp: timestamp)
        }
        // APNs echoes the id it was given; a missing or odd echo still means it took this one.
        return headers.first(name: "apns-id").flatMap(UUID.init(uuidString:)) ?? id
    }

    /// `apns-expiration`: epoch seconds until which APNs keeps retrying, or 0 for one attempt.
    private func expiration(_ timeToLive: Duration?) -> String {
        guard let timeToLive, timeToLive > .zero else { return "0" }
        return String(Int(now().timeIntervalSince1970) + Int(timeToLive.components.seconds))
    }

    static func isDeviceToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.count % 2 == 0 && token.utf8.count <= 200
            && token.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            }
    }

    /// Sorts the transport's failures into the error's cases: TLS (final), timeouts and
    /// everything else on the connection (worth another try).
    static func mapped(_ error: any Error, timeout: Duration) -> APNsError {
        if let error = error as? APNsError { return error }
        if error is NIOSSLError || error is BoringSSLError || error is NIOSSLExtraError { return .tls(String(describing: error)) }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout: return .timedOut(after: timeout)
            default: break
            }
        }
        return .connection(String(describing: error))
    }

    /// Owns the HTTP client. If its owner never called ``APNsClient/shutdown()`` (an error path
    /// that skipped it), the shutdown starts here rather than the HTTP client trapping on an
    /// unclosed deinit.
    private final class Lifetime: Sendable {
        let client: HTTPClient
        private let closed = Mutex(false)

        init(_ client: HTTPClient) { self.client = client }

        func shutdown() async throws {
            let first = closed.withLock { closed in
                defer { closed = true }
                return !closed
            }
            guard first else { return }
            try await client.shutdown()
        }

        deinit {
            if !closed.withLock({ $0 }) { client.shutdown { _ in } }
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
