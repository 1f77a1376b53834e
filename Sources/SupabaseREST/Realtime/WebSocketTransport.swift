import Foundation

/// The socket seam of Realtime: opens a WebSocket and exchanges text frames over it.
///
/// Realtime needs only text frames (the Phoenix `vsn=2.0.0` framing is JSON text), so the
/// seam is this narrow: tests replace it with a scripted fake that records every frame the
/// client writes and plays the server's side, and an app can route the socket elsewhere.
/// The default, ``WSClientTransport``, runs on swift-websocket because
/// `URLSessionWebSocketTask` is unavailable at run time on Linux.
public protocol WebSocketTransport: Sendable {
    /// Opens a WebSocket to `url` (`ws://` or `wss://`), sending `headers` with the upgrade
    /// request, and returns once the upgrade succeeded.
    ///
    /// - Throws: when the connection or the upgrade fails. Cancellation of the caller must
    ///   abandon the attempt.
    func connect(to url: URL, headers: [String: String]) async throws -> any WebSocketConnection
}

/// One open WebSocket.
public protocol WebSocketConnection: Sendable {
    /// The text frames the server sends, in order. The stream finishes when the socket is
    /// closed and throws when it fails. It is iterated by one consumer only, once.
    var messages: AsyncThrowingStream<String, any Error> { get }

    /// Queues a text frame.
    ///
    /// - Throws: when the socket is already closed.
    func send(_ text: String) async throws

    /// Closes the socket (a normal closure) and ends ``messages``. Closing twice does nothing.
    func close() async
}
