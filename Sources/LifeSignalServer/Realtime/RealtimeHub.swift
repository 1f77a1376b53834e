import Foundation
import LifeSignalBackend

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
        push(topic: message.topic, event: "phx_reply", payloadJSON: "{\"status\":\(JSONRenderer.quote(status)),\"response\":\(responseJSON)}",
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

/// Every joined channel of this server, by connection and topic.
actor RealtimeHub {
    private struct Key: Hashable {
        let connection: UUID
        let topic: String
    }

    private var channels: [Key: RealtimeChannel] = [:]
    private var connections: Set<UUID> = []
    private let bindingIDs = BindingIDs()
    /// Whether the dispatcher receives changes yet. A join is answered only once it does, so
    /// a client that writes right after joining never misses its own change.
    private(set) var isReady = false

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

    func connect(_ connection: RealtimeConnection) { connections.insert(connection.id) }

    /// Joins (or re-joins, replacing the earlier bindings) a channel.
    func join(_ channel: RealtimeChannel) {
        channels[Key(connection: channel.connection.id, topic: channel.topic)] = channel
    }

    @discardableResult
    func leave(connection: UUID, topic: String) -> RealtimeChannel? {
        channels.removeValue(forKey: Key(connection: connection, topic: topic))
    }

    func channel(connection: UUID, topic: String) -> RealtimeChannel? {
        channels[Key(connection: connection, topic: topic)]
    }

    func updateIdentity(connection: UUID, topic: String, caller: Caller, claims: TokenClaims?) {
        channels[Key(connection: connection, topic: topic)]?.caller = caller
        channels[Key(connection: connection, topic: topic)]?.claims = claims
    }

    func disconnect(_ connection: UUID) {
        connections.remove(connection)
        channels = channels.filter { $0.key.connection != connection }
    }

    /// Channels with at least one binding on `table`.
    func subscribers(of table: String) -> [RealtimeChannel] {
        channels.values.filter { channel in channel.bindings.contains { $0.table == table } }
    }

    var connectionCount: Int { connections.count }
    var channelCount: Int { channels.count }
}

/// Binding ids are handed out while a join is parsed, outside the hub's isolation.
private final class BindingIDs: @unchecked Sendable {
    private let lock = NSLock()
    private var last = 0

    func next() -> Int {
        lock.withLock {
            last += 1
            return last
        }
    }
}
