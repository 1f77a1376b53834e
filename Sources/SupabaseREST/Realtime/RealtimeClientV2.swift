import Foundation

/// Supabase Realtime: `postgres_changes` over one WebSocket, shaped like supabase-swift's
/// `RealtimeClientV2`.
///
/// ```swift
/// let channel = client.channel("locations")
/// let inserts = channel.postgresChange(InsertAction.self, schema: "public", table: "locations")
/// try await channel.subscribeWithError()
/// for await insert in inserts { let row = try insert.decodeRecord(as: Location.self) }
/// ```
///
/// The socket (`<url>/websocket?apikey=<key>&vsn=2.0.0`) opens on the first subscribe (or
/// ``connect()``), and from then on is kept open: a heartbeat goes out every
/// ``RealtimeClientOptions/heartbeatInterval``, a heartbeat left unanswered until the next
/// one marks the socket dead, and a lost socket is reopened after a capped exponential
/// backoff with jitter, re-joining every channel that was joined. Only ``disconnect()``
/// stops it.
public final class RealtimeClientV2: Sendable {
    /// The socket URL, with the `apikey` and `vsn=2.0.0` query.
    public let url: URL
    /// The options the client was created with.
    public let options: RealtimeClientOptions
    let apiKey: String
    /// Sent with the upgrade request: `apikey`, `X-Client-Info` and the configured headers.
    let headers: [String: String]
    /// The signed-in user's access token, refreshed when near expiry; `nil` when signed out.
    let accessTokenProvider: (@Sendable () async -> String?)?
    /// Tokens after each sign-in, refresh or sign-out, passed on with ``setAuth(_:)``.
    let tokenChanges: (@Sendable () -> AsyncStream<String?>)?
    let state = LockedValue(State())
    let statusSubject = RealtimeValueSubject<RealtimeClientStatus>(.disconnected)

    struct State {
        var channels: [String: RealtimeChannelV2] = [:]
        /// The task that opens, watches and reopens the socket; `nil` when stopped.
        var supervisor: Task<Void, Never>?
        /// Identifies the current supervisor, so a stopped one changes nothing.
        var supervisorID = 0
        var authObserver: Task<Void, Never>?
        var connection: (any WebSocketConnection)?
        /// Bumped for every socket (and by ``disconnect()``): pushes and replies of an older
        /// socket are recognised and dropped.
        var generation = 0
        var lastRef = 0
        /// Waiters for a `phx_reply`, by the `ref` of the push they answer.
        var pendingReplies: [String: @Sendable (Result<RealtimeMessageV2, RealtimeError>) -> Void] = [:]
        /// The `ref` of the heartbeat awaiting its reply.
        var pendingHeartbeat: String?
        /// The token channels joined with or were last given.
        var accessToken: String?
    }

    /// A client for the Realtime service at `url` (e.g. `https://<ref>.supabase.co/realtime/v1`).
    ///
    /// Channels join with the token given to ``setAuth(_:)``, or `apiKey` until then.
    public convenience init(url: URL, apiKey: String, options: RealtimeClientOptions = .init()) {
        self.init(
            url: url, apiKey: apiKey, options: options, headers: ["apikey": apiKey],
            accessToken: nil, tokenChanges: nil)
    }

    init(
        url: URL,
        apiKey: String,
        options: RealtimeClientOptions,
        headers: [String: String],
        accessToken: (@Sendable () async -> String?)?,
        tokenChanges: (@Sendable () -> AsyncStream<String?>)?
    ) {
        self.url = Self.socketURL(url, apiKey: apiKey)
        self.apiKey = apiKey
        self.options = options
        self.headers = headers.merging(options.headers) { _, configured in configured }
        self.accessTokenProvider = accessToken
        self.tokenChanges = tokenChanges
    }

    /// `<realtime url>/websocket?apikey=<key>&vsn=2.0.0`, with `http(s)` turned into `ws(s)`.
    static func socketURL(_ url: URL, apiKey: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        switch components.scheme?.lowercased() {
        case "https": components.scheme = "wss"
        case "http": components.scheme = "ws"
        default: break
        }
        var path = components.path
        while path.hasSuffix("/") { path.removeLast() }
        if !path.hasSuffix("/websocket") { path += "/websocket" }
        components.path = path
        components.queryItems = [URLQueryItem(name: "apikey", value: apiKey), URLQueryItem(name: "vsn", value: "2.0.0")]
        return components.url ?? url
    }

    // MARK: Status

    /// The socket's state now.
    public var status: RealtimeClientStatus { statusSubject.value }

    /// The socket's state: the current one, then every change.
    public var statusChange: AsyncStream<RealtimeClientStatus> { statusSubject.stream() }

    /// The channels of this client, by topic (`realtime:<name>`).
    public var channels: [String: RealtimeChannelV2] { state.value.channels }

    // MARK: Channels

    /// The channel `name` (topic `realtime:<name>`): the existing one when there is one.
    /// Nothing is sent until ``RealtimeChannelV2/subscribeWithError()``.
    public func channel(
        _ name: String,
        options: (inout RealtimeChannelConfig) -> Void = { _ in }
    ) -> RealtimeChannelV2 {
        let topic = "realtime:\(name)"
        var config = RealtimeChannelConfig()
        options(&config)
        return state.withValue { state in
            if let existing = state.channels[topic] { return existing }
            let channel = RealtimeChannelV2(topic: topic, config: config, socket: self)
            state.channels[topic] = channel
            return channel
        }
    }

    /// Leaves `channel` and forgets it; the socket is closed when no channel is left.
    public func removeChannel(_ channel: RealtimeChannelV2) async {
        await channel.unsubscribe()
        forget(channel)
        if state.value.channels.isEmpty { disconnect() }
    }

    /// Leaves and forgets every channel, then closes the socket.
    public func removeAllChannels() async {
        for channel in state.value.channels.values { await channel.unsubscribe() }
        state.withValue { $0.channels = [:] }
        disconnect()
    }

    /// Keeps `channel` among this client's channels (again, after an unsubscribe) and makes
    /// sure the socket is wanted.
    func adopt(_ channel: RealtimeChannelV2) {
        state.withValue { $0.channels[channel.topic] = channel }
        startIfNeeded()
    }

    /// Drops `channel` from this client's channels (not a newer channel of the same topic).
    func forget(_ channel: RealtimeChannelV2) {
        state.withValue { state in
            if state.channels[channel.topic] === channel { state.channels[channel.topic] = nil }
        }
    }

    // MARK: Connection

    /// Opens the socket if needed and waits until it is connected, at most
    /// ``RealtimeClientOptions/timeoutInterval`` (after which reconnection goes on in the
    /// background).
    public func connect() async {
        startIfNeeded()
        try? await waitUntilConnected()
    }

    /// Closes the socket and stops reconnecting. Channels become unsubscribed; their change
    /// streams stay open, so subscribing again resumes them.
    public func disconnect() {
        let (connection, waiters, channels) = state.withValue { state in
            state.supervisor?.cancel()
            state.supervisor = nil
            state.authObserver?.cancel()
            state.authObserver = nil
            let connection = state.connection
            state.connection = nil
            state.generation += 1
            state.pendingHeartbeat = nil
            let waiters = Array(state.pendingReplies.values)
            state.pendingReplies = [:]
            statusSubject.send(.disconnected)
            return (connection, waiters, Array(state.channels.values))
        }
        waiters.forEach { $0(.failure(.notConnected)) }
        channels.forEach { $0.socketStopped() }
        if let connection { Task { await connection.close() } }
    }

    // MARK: Auth

    /// Sets the token channels use and sends it (`access_token`) to every joined channel
    /// when it changed. With `nil`, the signed-in user's token is used, or the API key.
    public func setAuth(_ token: String? = nil) async {
        let resolved: String
        if let token {
            resolved = token
        } else if let accessTokenProvider {
            resolved = await accessTokenProvider() ?? apiKey
        } else {
            resolved = apiKey
        }
        let changed = state.withValue { state -> Bool in
            defer { state.accessToken = resolved }
            return state.accessToken != resolved
        }
        guard changed else { return }
        for channel in state.value.channels.values { await channel.sendAccessToken(resolved) }
    }

    /// The token a join carries: the signed-in user's (or the key) when the client follows an
    /// auth client, else the last ``setAuth(_:)`` token or the key.
    func accessTokenForJoin() async -> String {
        if let accessTokenProvider {
            let token = await accessTokenProvider() ?? apiKey
            state.withValue { $0.accessToken = token }
            return token
        }
        return state.value.accessToken ?? apiKey
    }

    /// A fresh message reference.
    func makeRef() -> String {
        state.withValue { state in
            state.lastRef += 1
            return String(state.lastRef)
        }
    }
}
