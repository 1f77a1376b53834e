import Foundation
import LifeSignalBackend
import LifeSignalDomain
import Testing

@testable import LifeSignalServer

/// The hub's bookkeeping when a socket ends: a disconnect goes through the connection's own
/// topics (not every channel of the server), so it must still leave exactly the other
/// sockets' channels and free every count the ended socket held.
@Suite("Realtime hub: disconnect")
struct RealtimeHubTests {
    private static func connection() -> RealtimeConnection {
        RealtimeConnection(serializer: .array, outbox: AsyncStream<String>.makeStream().continuation)
    }

    private static func channel(_ connection: RealtimeConnection, _ topic: String, as caller: Caller) -> RealtimeChannel {
        let binding = PostgresChangesBinding(id: 1, event: "INSERT", schema: "public", table: "locations", filterText: nil, filter: nil, request: [:])
        return RealtimeChannel(connection: connection, topic: topic, joinRef: .string("1"), caller: caller, claims: nil, bindings: [binding])
    }

    @Test("a disconnect removes that socket's channels and counts, and only those")
    func disconnectLeavesOthers() async throws {
        let hub = RealtimeHub(limits: RealtimeLimits(socketsPerUser: 1, socketsPerAddress: 1))
        let person = Caller.user(UserID(UUID()))
        let (ended, other, next) = (Self.connection(), Self.connection(), Self.connection())
        #expect(await hub.connect(ended, address: "127.0.0.2") == nil)
        #expect(await hub.connect(other, address: "127.0.0.3") == nil)
        #expect(await hub.join(Self.channel(ended, "realtime:a", as: person)) == nil)
        #expect(await hub.join(Self.channel(ended, "realtime:b", as: person)) == nil)
        #expect(await hub.join(Self.channel(other, "realtime:a", as: .anonymous)) == nil)
        #expect(await hub.hasRoom(for: "127.0.0.2") == false)

        await hub.disconnect(ended.id)

        #expect(await hub.connectionCount == 1)
        #expect(await hub.channelCount == 1)
        #expect(await hub.channels(of: ended.id).isEmpty)
        #expect(await hub.channel(connection: other.id, topic: "realtime:a") != nil)
        #expect(await hub.subscribers(of: "locations").map(\.connection.id) == [other.id])
        // The address and the person each had their one socket; both are free again.
        #expect(await hub.hasRoom(for: "127.0.0.2"))
        #expect(await hub.connect(next, address: "127.0.0.2") == nil)
        #expect(await hub.join(Self.channel(next, "realtime:a", as: person)) == nil)
    }
}
