/// Bounds on what one TCP connection may hold: how long a client may take to send a request,
/// how long an idle keep-alive connection stays open, how large a request head may be, and how
/// many connections one client address may keep open at once.
///
/// Without them a stranger holds the server with connections that never finish a request (a
/// head sent a byte at a time, or nothing at all) until it runs out of descriptors, and while
/// it does the sweep that tells people a deadline passed has nothing to run on. Each limit is
/// applied per connection by the handlers in `ConnectionGuardHandlers.swift`; docs/security.md
/// ("Connections") lists what the client sees for each.
public struct ConnectionLimits: Sendable, Hashable {
    /// Time a client has to send a whole request head (request line and headers). It counts
    /// from accepting the connection for its first request, and from the first byte of each
    /// later one; when it passes, a client that sent part of a head gets 408, a silent one is
    /// closed. A total deadline rather than one between bytes: a head sent a byte every few
    /// seconds never finishes in time.
    public var headTimeout: Duration
    /// Time a client has to send a whole request body, counted from the end of its head. When
    /// it passes the client gets 408 (if no answer was started) and the connection is closed.
    /// The server's own time to answer is not counted.
    public var bodyTimeout: Duration
    /// Time an open keep-alive connection may wait for its next request after an answer; then
    /// it is closed without a word, as HTTP/1.1 allows.
    public var idleTimeout: Duration
    /// Time the server has to answer a request once it is read. A handler stuck past it (a
    /// statement waiting on a lock, a database that stopped answering mid-query) gets 503
    /// with `Retry-After` from the connection itself, and the connection is closed; the work
    /// may still finish. An answer still being written when it passes (a client that does
    /// not read) is cut off. This bounds every answer, wherever a wait hides.
    public var answerTimeout: Duration
    /// Largest request head in bytes, request line included; a larger one gets 431.
    public var maxHeadBytes: Int
    /// Most connections (HTTP and WebSocket) one client address may hold open at once; the next
    /// one gets 429 and is closed as soon as it is accepted. `nil` sets no cap (a server behind
    /// a proxy sees every client at the proxy's address).
    public var maxConnectionsPerAddress: Int?

    public init(
        headTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30), idleTimeout: Duration = .seconds(60),
        answerTimeout: Duration = .seconds(60), maxHeadBytes: Int = 32 * 1024, maxConnectionsPerAddress: Int? = 256
    ) {
        self.answerTimeout = answerTimeout
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxHeadBytes = maxHeadBytes
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
    }

    /// The defaults: 10 s for a head, 30 s for a body, 60 s idle, 60 s to answer, 32 KiB heads, 256
    /// connections per address.
    public static let standard = ConnectionLimits()
}
