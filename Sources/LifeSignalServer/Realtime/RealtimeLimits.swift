/// How much one Realtime client may ask of the server.
///
/// Every socket costs a task and a queue, every channel and binding costs work for each change
/// of its table, and every inbound message costs a decode: without bounds, one client holding
/// the anon key could make the server spend its time on it. A limit that a join exceeds is
/// refused with a Phoenix error reply (`phx_reply`, status `error`, a `reason`), as any other
/// refused join; a limit on the socket itself closes the socket with a reason. None of them
/// waits on the database, so none can hold up a write.
public struct RealtimeLimits: Sendable, Equatable {
    /// Channels one socket may have joined at once (Supabase Realtime's own default).
    public var channelsPerSocket: Int
    /// `postgres_changes` entries in one join.
    public var bindingsPerJoin: Int
    /// Largest inbound message, in bytes, whether in one frame or in fragments. Clients' joins,
    /// heartbeats and token refreshes take a few kilobytes at most.
    public var maxMessageBytes: Int
    /// Inbound messages one socket may send per second, with bursts of as many. A message over
    /// the rate is refused; a socket that keeps sending after as many refusals again is closed.
    public var messagesPerSecond: Int
    /// Sockets on which one signed-in person has joined channels (phones, tablets, tabs).
    public var socketsPerUser: Int
    /// Open sockets from one client address; enough for a household or an office behind one
    /// router.
    public var socketsPerAddress: Int

    public init(
        channelsPerSocket: Int = 100, bindingsPerJoin: Int = 20, maxMessageBytes: Int = 16 * 1024,
        messagesPerSecond: Int = 50, socketsPerUser: Int = 16, socketsPerAddress: Int = 256
    ) {
        self.channelsPerSocket = channelsPerSocket
        self.bindingsPerJoin = bindingsPerJoin
        self.maxMessageBytes = maxMessageBytes
        self.messagesPerSecond = messagesPerSecond
        self.socketsPerUser = socketsPerUser
        self.socketsPerAddress = socketsPerAddress
    }
}
