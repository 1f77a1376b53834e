import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import Logging
import NIOCore
import ServiceLifecycle

/// Where `/metrics` is served apart from the public port.
public struct MetricsListener: Sendable, Hashable {
    public var host: String
    public var port: Int

    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }
}

/// One scrape of the server's metrics, answered on the metrics listener (to anyone who can
/// reach it: it binds to loopback by default) or on the public port to a bearer of the
/// operator's token. Delivery counts per channel and status and request counts per route are
/// the operator's business, not the public's (issue 31).
struct MetricsScrape: Sendable {
    let metrics: ServerMetrics
    let backend: LifeSignalBackend
    let summary: DeliverySummaryCache
    let realtime: @Sendable () async -> (connections: Int, channels: Int)

    func response() async -> Response {
        let (connections, channels) = await realtime()
        metrics.setRealtime(connections: connections, channels: channels)
        if let summary = await summary.current() { metrics.setDeliveries(summary, rules: backend.configuration.deliveryRules) }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.render())))
    }

    /// The public port's answer: 404 unless a token is set, 401 to anyone without it.
    func answer(_ request: Request, token: String?) async throws -> Response {
        guard let token else { throw HTTPError(.notFound) }
        let presented = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
        guard AuthService.constantTimeEqual(presented, token) else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer realm=\"metrics\""], message: "A metrics token is required")
        }
        return await response()
    }

    /// The listener of its own: `/metrics` and nothing else.
    func application(_ listener: MetricsListener, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void) -> some Service {
        let router = Router()
        router.get("metrics") { _, _ in await response() }
        return Application(
            router: router, configuration: .init(address: .hostname(listener.host, port: listener.port), serverName: "LifeSignal metrics"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? listener.port) }, logger: logger)
    }
}
