import Foundation
import HTTPTypes
import Logging
import NIOSSL
import WSClient

/// The default ``WebSocketTransport``: swift-websocket's `WebSocketClient` over SwiftNIO,
/// which works on Linux and Apple platforms alike.
///
/// `wss://` (and `https://`) URLs use TLS with ``tlsConfiguration``, or the system's trust
/// roots when it is `nil`; `ws://` (and `http://`) URLs are plain. Nothing is logged — the
/// socket URL carries the API key.
public struct WSClientTransport: WebSocketTransport {
    /// The TLS configuration of `wss://` connections; `nil` uses
    /// `TLSConfiguration.makeClientConfiguration()` (full certificate verification).
    public var tlsConfiguration: TLSConfiguration?
    /// The largest frame accepted: a change carries a whole row, so this is far above
    /// swift-websocket's 16 KiB default.
    public var maxFrameSize: Int
    /// How long ``WebSocketConnection/close()`` waits for the closing handshake.
    public var closeTimeout: Duration

    /// Creates the transport.
    public init(
        tlsConfiguration: TLSConfiguration? = nil,
        maxFrameSize: Int = 1 << 24,
        closeTimeout: Duration = .seconds(2)
    ) {
        self.tlsConfiguration = tlsConfiguration
        self.maxFrameSize = maxFrameSize
        self.closeTimeout = closeTimeout
    }

    public func connect(to url: URL, headers: [String: String]) async throws -> any WebSocketConnection {
        let scheme = url.scheme?.lowercased() ?? ""
        guard ["ws", "wss", "http", "https"].contains(scheme), url.host != nil else {
            throw RealtimeError.invalidURL(Self.redacted(url))
        }
        let secure = scheme == "wss" || scheme == "https"
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let fieldName = HTTPField.Name(name) { fields[fieldName] = value }
        }
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: maxFrameSize, additionalHeaders: fields, closeTimeout: closeTimeout)
        return try await WSClientConnection.open(
            url: url.absoluteString, configuration: configuration,
            tlsConfiguration: secure ? (tlsConfiguration ?? .makeClientConfiguration()) : nil,
            maxFrameSize: maxFrameSize, closeTimeout: closeTimeout)
    }

    /// The URL without its query (which holds the API key), for error messages.
    static func redacted(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<unparseable URL>"
        }
        components.query = nil
        return components.string ?? "<unparseable URL>"
    }
}

/// A socket opened by ``WSClientTransport``.
///
/// swift-websocket hands the socket to a handler closure and closes it when the closure
/// returns, so the closure runs in a task of its own for the socket's lifetime: it writes
/// what ``send(_:)`` queues and yields what arrives into ``messages``.
final class WSClientConnection: WebSocketConnection {
    private enum Outgoing: Sendable {
        case text(String)
        case close
    }

    let messages: AsyncThrowingStream<String, any Error>
    private let outgoing: AsyncStream<Outgoing>.Continuation
    private let task: Task<Void, Never>
    private let closeTimeout: Duration

    private init(
        messages: AsyncThrowingStream<String, any Error>, outgoing: AsyncStream<Outgoing>.Continuation,
        task: Task<Void, Never>, closeTimeout: Duration
    ) {
        self.messages = messages
        self.outgoing = outgoing
        self.task = task
        self.closeTimeout = closeTimeout
    }

    /// Connects and returns once the upgrade succeeded.
    static func open(
        url: String, configuration: WebSocketClientConfiguration, tlsConfiguration: TLSConfiguration?,
        maxFrameSize: Int, closeTimeout: Duration
    ) async throws -> WSClientConnection {
        let (messages, incoming) = AsyncThrowingStream<String, any Error>.makeStream()
        let (outgoingFrames, outgoing) = AsyncStream<Outgoing>.makeStream()
        let (opened, openedContinuation) = AsyncThrowingStream<Void, any Error>.makeStream()
        let logger = Logger(label: "supabase.realtime.socket", factory: { _ in SwiftLogNoOpLogHandler() })

        let task = Task {
            do {
                try await WebSocketClient.connect(
                    url: url, configuration: configuration, tlsConfiguration: tlsConfiguration, logger: logger
                ) { inbound, outbound, _ in
                    openedContinuation.yield(())
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await frame in outgoingFrames {
                                switch frame {
                                case .text(let text): try await outbound.write(.text(text))
                                case .close:
                                    try await outbound.close(.normalClosure, reason: nil)
                                    return
                                }
                            }
                        }
                        for try await message in inbound.messages(maxSize: maxFrameSize) {
                            if case .text(let text) = message { incoming.yield(text) }
                        }
                        group.cancelAll()
                    }
                }
                incoming.finish()
                openedContinuation.finish(throwing: RealtimeError.transport(message: "the server closed the socket at once"))
            } catch {
                let failure = RealtimeError.transport(message: String(describing: error))
                incoming.finish(throwing: failure)
                openedContinuation.finish(throwing: failure)
            }
        }

        let connection = WSClientConnection(
            messages: messages, outgoing: outgoing, task: task, closeTimeout: closeTimeout)
        return try await withTaskCancellationHandler {
            for try await _ in opened { return connection }
            // The stream ends without an element only when the waiter was cancelled.
            task.cancel()
            throw CancellationError()
        } onCancel: {
            task.cancel()
        }
    }

    func send(_ text: String) async throws {
        guard case .enqueued = outgoing.yield(.text(text)) else { throw RealtimeError.notConnected }
    }

    func close() async {
        outgoing.yield(.close)
        outgoing.finish()
        let task = self.task
        let watchdog = Task {
            try? await Task.sleep(for: closeTimeout)
            if !Task.isCancelled { task.cancel() }
        }
        await task.value
        watchdog.cancel()
    }
}
