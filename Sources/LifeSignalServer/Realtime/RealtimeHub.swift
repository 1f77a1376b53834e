import Foundation
import LifeSignalBackend
import Synchronization

/// One WebSocket of a Realtime client: frames queued for it are written in order by the
/// socket's own writer task, so a slow client never stalls the dispatcher (its queue keeps
/// the newest frames when it falls far behind).
final class RealtimeConnection: Sendable {
    let id = UUID()
    let serializer: PhoenixMessage.Serializer
    private let outbox: AsyncStream<String>.Continuation

    init(serializer: PhoenixMessage.Serializer, outbox: AsyncStream<String>.Continuation) {
        self.serializer = serializer
        self.outbox = outbox
    }

    func push(topic: String, event: String, payloadJSON: String, joinRef: JSONValue = .null, ref: JSONValue = .null) {
        outbox.yield(PhoenixMessage.encode(joinRef: joinRef, ref: ref, topic: topic, event: event, payloadJSON: payloadJSON, as: serializer))
    }

    /// `phx_reply` to a push, echoing its references.
    func reply(to message: PhoenixMessage, status: String, responseJSON: String) {
        push(
            topic: message.topic, event: "phx_reply", payloadJSON: "{\"status\":\(JSONRenderer.quote(status)),\"response\":\(responseJSON)}",
            joinRef: message.joinRef, ref: message.ref)
    }

    func close() { outbox.finish() }
}

/// A channel a connection has joined, with the identity it joined as.
struct RealtimeChannel: Sendable {
    let connection: RealtimeConnection
    let topic: String
    let joinRef: JSONValue
    var caller: Caller
    var claims: TokenClaims?
    var bindings: [PostgresChangesBinding]
}

/// Every joined channel of this server, by connection and topic, and the counts the
/// ``RealtimeLimits`` are checked against.
actor RealtimeHub {
    private struct Key: Hashable {
        let connection: UUID
        let topic: String
    }

    let limits: RealtimeLimits
    nonisolated let counters: RealtimeCounters
    private var channels: [Key: RealtimeChannel] = [:]
    /// Open connections and the client address each came from (`nil`: not an IP client).
    private var connections: [UUID: String?] = [:]
    private var socketsByAddress: [String: Int] = [:]
    private var channelsByConnection: [UUID: Int] = [:]
    /// The topics each connection has joined, so a heartbeat's session check reads its own
    /// channels rather than every channel of the server.
    private var topicsByConnection: [UUID: Set<String>] = [:]
    /// For each signed-in person, the sockets with channels joined as them (and how many).
    private var userSockets: [Caller: [UUID: Int]] = [:]
    private let bindingIDs = BindingIDs()
    /// Whether the dispatcher receives changes yet. A join is answered only once it does, so
    /// a client that writes right after joining never misses its own change.
    private(set) var isReady = false

    init(limits: RealtimeLimits = RealtimeLimits(), counters: RealtimeCounters = RealtimeCounters()) {
        self.limits = limits
        self.counters = counters
    }

    func markReady() { isReady = true }

    /// Waits (up to `limit`) for the dispatcher; `false` when it is still not receiving.
    func waitUntilReady(limit: Duration = .seconds(5)) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !isReady && clock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return isReady
    }

    /// A fresh id for a `postgres_changes` binding, unique on this server.
    nonisolated func nextBindingID() -> Int { bindingIDs.next() }

    /// Whether `address` may open another socket (`nil`, a client without an IP address, always may).
    func hasRoom(for address: String?) -> Bool {
        guard let address else { return true }
        return socketsByAddress[address, default: 0] < limits.socketsPerAddress
    }

    static func addressRefusal(_ limits: RealtimeLimits) -> String {
        "Too many sockets from this address: at most \(limits.socketsPerAddress)"
    }

    /// Counts a new socket from `address`; the reason it is refused when that address already
    /// has ``RealtimeLimits/socketsPerAddress`` open.
    func connect(_ connection: RealtimeConnection, address: String?) -> String? {
        connections[connection.id] = address
        guard let address else { return nil }
        let open = socketsByAddress[address, default: 0]
        guard open < limits.socketsPerAddress else {
            connections[connection.id] = nil
            counters.refused(.socketsPerAddress)
            return Self.addressRefusal(limits)
        }
        socketsByAddress[address] = open + 1
        return nil
    }

    /// Joins (or re-joins, replacing the earlier bindings) a channel; the reason it is refused
    /// when the socket has too many channels or its person too many sockets.
    func join(_ channel: RealtimeChannel) -> String? {
        let key = Key(connection: channel.connection.id, topic: channel.topic)
        let earlier = channels[key]
        if earlier == nil, channelsByConnection[key.connection, default: 0] >= limits.channelsPerSocket {
            counters.refused(.channelsPerSocket)
            return "Too many channels on this socket: at most \(limits.channelsPerSocket)"
        }
        if earlier?.caller != channel.caller, let refusal = admitUser(channel.caller, on: key.connection) { return refusal }
        if let earlier { remove(key, earlier) }
        add(key, channel)
        return nil
    }

    @discardableResult
    func leave(connection: UUID, topic: String) -> RealtimeChannel? {
        let key = Key(connection: connection, topic: topic)
        guard let channel = channels[key] else { return nil }
        remove(key, channel)
        return channel
    }

    func channel(connection: UUID, topic: String) -> RealtimeChannel? {
        channels[Key(connection: connection, topic: topic)]
    }

    /// Every channel `connection` has joined (its heartbeat checks their sessions).
    func channels(of connection: UUID) -> [RealtimeChannel] {
        (topicsByConnection[connection] ?? []).compactMap { channels[Key(connection: connection, topic: $0)] }
    }

    /// A refreshed token; the reason it is refused when it names a person who already has
    /// ``RealtimeLimits/socketsPerUser`` sockets (the channel is left as it was).
    func updateIdentity(connection: UUID, topic: String, caller: Caller, claims: TokenClaims?) -> String? {
        let key = Key(connection: connection, topic: topic)
        guard var channel = channels[key] else { return nil }
        if channel.caller != caller, let refusal = admitUser(caller, on: connection) { return refusal }
        remove(key, channel)
        channel.caller = caller
        channel.claims = claims
        add(key, channel)
        return nil
    }

    func disconnect(_ connection: UUID) {
        // Through the connection's own topics: scanning every channel of the server (and
        // copying the dictionary it was mutating while iterating it) made 10,000 sockets
        // dropped at once take 40 s of the hub, with joins and changes waiting behind it.
        for topic in topicsByConnection[connection] ?? [] {
            let key = Key(connection: connection, topic: topic)
            if let channel = channels[key] { remove(key, channel) }
        }
        if case let address?? = connections.removeValue(forKey: connection) {
            let open = socketsByAddress[address, default: 1] - 1
            socketsByAddress[address] = open > 0 ? open : nil
        }
    }

    /// Channels with at least one binding on `table`.
    func subscribers(of table: String) -> [RealtimeChannel] {
        channels.values.filter { channel in channel.bindings.contains { $0.table == table } }
    }

    var connectionCount: Int { connections.count }
    var channelCount: Int { channels.count }

    private func admitUser(_ caller: Caller, on connection: UUID) -> String? {
        guard case .user = caller, let sockets = userSockets[caller], sockets[connection] == nil,
            sockets.count >= limits.socketsPerUser
        else { return nil }
        counters.refused(.socketsPerUser)
        return "Too many sockets for this user: at most \(limits.socketsPerUser)"
    }

    private func add(_ key: Key, _ channel: RealtimeChannel) {
        channels[key] = channel
        channelsByConnection[key.connection, default: 0] += 1
        topicsByConnection[key.connection, default: []].insert(key.topic)
        if case .user = channel.caller { userSockets[channel.caller, default: [:]][key.connection, default: 0] += 1 }
    }

    private func remove(_ key: Key, _ channel: RealtimeChannel) {
        channels[key] = nil
        let left = channelsByConnection[key.connection, default: 1] - 1
        channelsByConnection[key.connection] = left > 0 ? left : nil
        topicsByConnection[key.connection]?.remove(key.topic)
        if topicsByConnection[key.connection]?.isEmpty == true { topicsByConnection[key.connection] = nil }
        guard case .user = channel.caller, var sockets = userSockets[channel.caller] else { return }
        let count = sockets[key.connection, default: 1] - 1
        sockets[key.connection] = count > 0 ? count : nil
        userSockets[channel.caller] = sockets.isEmpty ? nil : sockets
    }
}

/// Binding ids are handed out while a join is parsed, outside the hub's isolation.
private final class BindingIDs: Sendable {
    private let last = Mutex(0)

    func next() -> Int {
        last.withLock { last in
            last += 1
            return last
        }
    }
}
