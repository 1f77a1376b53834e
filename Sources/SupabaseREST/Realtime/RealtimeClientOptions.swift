import Foundation

/// Realtime options of a ``SupabaseClient`` (`SupabaseClientOptions.realtime`).
///
/// Same name as supabase-swift's options; durations are `Duration`s like the rest of this
/// client's options rather than `TimeInterval`s.
public struct RealtimeClientOptions: Sendable {
    /// Headers added to the WebSocket upgrade request.
    public var headers: [String: String]
    /// The socket seam; replace it to test or to route the socket elsewhere.
    public var transport: any WebSocketTransport
    /// How often a `phoenix`/`heartbeat` is sent. A heartbeat still unanswered when the next
    /// one is due means the socket is dead: it is closed and reopened.
    public var heartbeatInterval: Duration
    /// The delays between reconnection attempts.
    public var reconnectBackoff: RealtimeBackoff
    /// The time limit of opening the socket, of a join's reply, and of a whole
    /// ``RealtimeChannelV2/subscribeWithError()``.
    public var timeoutInterval: Duration

    /// Creates options.
    public init(
        headers: [String: String] = [:],
        transport: any WebSocketTransport = WSClientTransport(),
        heartbeatInterval: Duration = .seconds(25),
        reconnectBackoff: RealtimeBackoff = .default,
        timeoutInterval: Duration = .seconds(10)
    ) {
        self.headers = headers
        self.transport = transport
        self.heartbeatInterval = heartbeatInterval
        self.reconnectBackoff = reconnectBackoff
        self.timeoutInterval = timeoutInterval
    }
}
