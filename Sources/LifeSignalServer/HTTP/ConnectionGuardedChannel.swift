import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import Synchronization

/// Hummingbird's HTTP/1.1 channel with the WebSocket upgrade, inside the connection guards of
/// ``ConnectionLimits``: a connection over its address's cap gets 429 and never reaches HTTP;
/// every other one gets ``ConnectionSocketHandler`` before the HTTP decoder and
/// ``ConnectionRequestHandler`` after it, and the decoder's header limits set to the head limit.
struct ConnectionGuardedChannel: ServerChildChannel {
    enum Value: ServerChildChannelValue {
        case accepted(HTTP1WebSocketUpgradeChannel.Value)
        case refused(any Channel)

        var channel: any Channel {
            switch self {
            case .accepted(let value): value.channel
            case .refused(let channel): channel
            }
        }
    }

    let inner: HTTP1WebSocketUpgradeChannel
    let limits: ConnectionLimits
    let addresses: ConnectionAddresses

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        // Counted by the socket's peer, as the per-address request limits count it (IPv6 per
        // /64); no header can be read at accept time, so behind a proxy every client is the
        // proxy's address. A peer without an IP address (a Unix socket) is not capped.
        if let maximum = limits.maxConnectionsPerAddress, let peer = channel.remoteAddress,
            let canonical = ClientAddressResolver.canonical(peer)
        {
            let address = ClientAddressResolver.bucket(canonical)
            guard addresses.open(address, maximum: maximum) else {
                logger.debug("Connection refused: too many from one address", metadata: ["address": "\(address)", "maximum": "\(maximum)"])
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ConnectionRefusalHandler(maximum: maximum))
                    return .refused(channel)
                }
            }
            channel.closeFuture.whenComplete { _ in addresses.close(address) }
        }
        // Hummingbird sets up a child channel on its event loop, so the pipeline's synchronous
        // operations and the isolated future below are safe here.
        let state = ConnectionGuard(limits: limits, logger: logger)
        do {
            try channel.pipeline.syncOperations.addHandler(ConnectionSocketHandler(state: state), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        // The request handler goes last now, so it sits after the decoder and the upgrade
        // handler; Hummingbird's codec is added behind it once the request is not an upgrade.
        return inner.setup(channel: channel, logger: logger).assumeIsolated().flatMapThrowing { value in
            try channel.pipeline.syncOperations.addHandler(ConnectionRequestHandler(state: state))
            return Value.accepted(value)
        }.nonisolated()
    }

    func handle(value: Value, logger: Logger) async {
        switch value {
        case .accepted(let inner):
            await self.inner.handle(value: inner, logger: ConnectionLogFilter.wrapping(logger))
        case .refused(let channel):
            try? await channel.closeFuture.get()
        }
    }
}

/// Open connections per client address, across all event loops.
final class ConnectionAddresses: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    /// Counts a new connection from `address`, unless it already holds `maximum`.
    func open(_ address: String, maximum: Int) -> Bool {
        counts.withLock { counts in
            let current = counts[address, default: 0]
            guard current < maximum else { return false }
            counts[address] = current + 1
            return true
        }
    }

    func close(_ address: String) {
        counts.withLock { counts in
            let remaining = counts[address, default: 1] - 1
            counts[address] = remaining > 0 ? remaining : nil
        }
    }
}

extension HTTPServerBuilder {
    /// Hummingbird's `http1WebSocketUpgrade(webSocketRouter:configuration:)` inside the
    /// connection guards of `limits`.
    static func guardedHTTP1WebSocketUpgrade<WSResponderBuilder: HTTPResponderBuilder & _HB_SendableMetatype>(
        webSocketRouter: WSResponderBuilder, webSocket: WebSocketServerConfiguration = .init(), limits: ConnectionLimits
    ) -> HTTPServerBuilder where WSResponderBuilder.Responder.Context: WebSocketRequestContext {
        let webSocketResponder = webSocketRouter.buildResponder()
        let addresses = ConnectionAddresses()
        // The decoder's header limits match the head limit, so a head the guard has not yet
        // counted past it (one read of many headers) is refused by the decoder with the same 431.
        let decoder = HTTP1Channel.Configuration.DecoderConfiguration(maxHeaderFieldSize: limits.maxHeadBytes, maxHeaderListSize: limits.maxHeadBytes)
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: nil, httpDecoderConfiguration: decoder), ws: webSocket)
        return .init { responder in
            ConnectionGuardedChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: configuration),
                limits: limits, addresses: addresses)
        }
    }
}
