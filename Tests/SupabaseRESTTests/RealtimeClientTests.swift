import Foundation
import Testing

@testable import SupabaseREST

/// The socket's life over a scripted transport: heartbeats, a dead socket detected,
/// reconnection with backoff and re-joins, tokens, and disconnecting.
@Suite(.timeLimit(.minutes(10))) struct RealtimeClientTests {
    /// A subscribed channel `room` with one INSERT binding routed by id `id`.
    static func subscribed(
        _ client: SupabaseClient, _ transport: FakeSocketTransport, id: Int = 1
    ) async throws -> (RealtimeChannelV2, StreamCollector<InsertAction>, FakeSocket) {
        let channel = client.channel("room")
        let inserts = StreamCollector(channel.postgresChange(InsertAction.self, table: "locations"))
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(transport.sockets.count)
        try socket.acceptJoin(try await socket.next(), ids: [id])
        try await subscribing.value
        return (channel, inserts, socket)
    }

    @Test func heartbeatsAnsweredKeepTheSocket() async throws {
        let transport = FakeSocketTransport()
        // Long enough that a reply the loaded test machine sends late still lands before the
        // next beat (which would count it missed and, rightly, reconnect).
        let client = makeRealtimeClient(transport, heartbeat: .milliseconds(500))
        defer { client.realtimeV2.disconnect() }
        let (_, _, socket) = try await Self.subscribed(client, transport)
        for expectedRef in 2...4 {
            let beat = try await socket.next(heartbeats: true)
            #expect(beat == #"[null,"\#(expectedRef)","phoenix","heartbeat",{}]"#)
            try socket.reply(to: try RealtimeMessageV2.decode(beat), status: "ok")
        }
        #expect(transport.attempts.count == 1)
        #expect(!socket.isClosed)
    }

    @Test func aMissedHeartbeatReplyReconnectsAndRejoins() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport, heartbeat: .milliseconds(100))
        defer { client.realtimeV2.disconnect() }
        let statuses = StreamCollector(client.realtimeV2.statusChange)
        let (channel, inserts, first) = try await Self.subscribed(client, transport, id: 1)
        let channelStatuses = StreamCollector(channel.statusChange)

        // The heartbeat goes unanswered: at the next beat the socket is declared dead.
        #expect(try await first.next(heartbeats: true) == #"[null,"2","phoenix","heartbeat",{}]"#)
        try await waitUntil("the dead socket to be closed") { first.isClosed }
        let second = try await transport.socket(1)
        let rejoin = try await second.next()
        #expect(rejoin.hasPrefix(#"["3","3","realtime:room","phx_join",{"access_token":"anon-key""#))
        #expect(rejoin.contains(#""postgres_changes":[{"event":"INSERT","schema":"public","table":"locations"}]"#))
        try second.acceptJoin(rejoin, ids: [7])
        try await waitUntil("the channel to be joined again") { channel.status == .subscribed }

        // Routes follow the new ids: the old id no longer routes anything.
        try second.pushChange(topic: "realtime:room", ids: [1], type: "INSERT", record: ["id": 1])
        try second.pushChange(topic: "realtime:room", ids: [7], type: "INSERT", record: ["id": 2])
        #expect(try await inserts.first(1).map(\.record) == [["id": 2]])
        try await Task.sleep(for: .milliseconds(30))
        #expect(inserts.items.count == 1)
        #expect(
            try await statuses.first(6) == [.disconnected, .connecting, .connected, .disconnected, .connecting, .connected])
        #expect(try await channelStatuses.first(3) == [.subscribed, .subscribing, .subscribed])
    }

    @Test func aDroppedSocketIsReopenedAfterBackoffAndChannelsRejoined() async throws {
        let transport = FakeSocketTransport(script: [.open, .fail, .fail])
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let (channel, inserts, first) = try await Self.subscribed(client, transport, id: 4)
        first.drop()
        // Two refused attempts, then a socket: the channel joins on it with a new join ref.
        let second = try await transport.socket(1)
        #expect(transport.attempts.count == 4)
        #expect(transport.attempts.allSatisfy { $0.url == transport.attempts[0].url })
        let rejoin = try RealtimeMessageV2.decode(try await second.next())
        #expect(rejoin.event == "phx_join")
        #expect(rejoin.joinRef == "2")
        try second.acceptJoin(try rejoin.encodedText(), ids: [9])
        try await waitUntil("the channel to be joined again") { channel.status == .subscribed }
        try second.pushChange(topic: "realtime:room", ids: [9], type: "INSERT", record: ["id": 5])
        #expect(try await inserts.first(1).first?.record == ["id": 5])
    }

    @Test func setAuthSendsANewTokenToJoinedChannelsOnce() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let (_, _, socket) = try await Self.subscribed(client, transport)
        await client.realtimeV2.setAuth("user-token")
        #expect(try await socket.next() == #"["1","2","realtime:room","access_token",{"access_token":"user-token"}]"#)
        await client.realtimeV2.setAuth("user-token")
        try await socket.expectSilence()
        // Without a token and signed out: back to the key.
        await client.realtimeV2.setAuth()
        #expect(try await socket.next() == #"["1","3","realtime:room","access_token",{"access_token":"anon-key"}]"#)
    }

    @Test func signingInSwitchesJoinedChannelsToTheUsersToken() async throws {
        let transport = FakeSocketTransport()
        let http = RecordingTransport(body: sessionJSON(access: "user-access", refresh: "r1"))
        let client = makeRealtimeClient(transport, http: http)
        defer { client.realtimeV2.disconnect() }
        let (_, _, socket) = try await Self.subscribed(client, transport)
        try await client.auth.verifyOTP(phone: "+14155550100", token: "123456", type: .sms)
        #expect(try await socket.next() == #"["1","2","realtime:room","access_token",{"access_token":"user-access"}]"#)

        // A channel joined now carries the user's token.
        let other = client.channel("other")
        let joining = Task { try await other.subscribeWithError() }
        let join = try await socket.next()
        #expect(join.hasPrefix(#"["3","3","realtime:other","phx_join",{"access_token":"user-access""#))
        try socket.acceptJoin(join, ids: [])
        try await joining.value

        try await client.auth.signOut()
        let frames = [try await socket.next(), try await socket.next()].sorted()
        #expect(
            frames == [
                #"["1","4","realtime:room","access_token",{"access_token":"anon-key"}]"#,
                #"["3","5","realtime:other","access_token",{"access_token":"anon-key"}]"#,
            ]
                || frames == [
                    #"["1","5","realtime:room","access_token",{"access_token":"anon-key"}]"#,
                    #"["3","4","realtime:other","access_token",{"access_token":"anon-key"}]"#,
                ])
    }

    @Test func disconnectClosesTheSocketAndStopsReconnecting() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let (channel, inserts, socket) = try await Self.subscribed(client, transport)
        client.realtimeV2.disconnect()
        #expect(client.realtimeV2.status == .disconnected)
        #expect(channel.status == .unsubscribed)
        try await waitUntil("the socket to be closed") { socket.isClosed }
        try await Task.sleep(for: .milliseconds(100))
        #expect(transport.attempts.count == 1)
        #expect(!inserts.isFinished)

        // Subscribing again reopens the socket and resumes the same stream.
        let subscribing = Task { try await channel.subscribeWithError() }
        let second = try await transport.socket(1)
        try second.acceptJoin(try await second.next(), ids: [2])
        try await subscribing.value
        try second.pushChange(topic: "realtime:room", ids: [2], type: "INSERT", record: ["id": 1])
        #expect(try await inserts.first(1).count == 1)
        // Removing the last channel leaves it and closes the socket.
        let removing = Task { await client.realtimeV2.removeChannel(channel) }
        let leave = try await second.next()
        #expect(leave == #"["2","3","realtime:room","phx_leave",{}]"#)
        try second.reply(to: try RealtimeMessageV2.decode(leave), status: "ok")
        await removing.value
        try await waitUntil("the socket to be closed") { second.isClosed }
        #expect(client.realtimeV2.channels.isEmpty)
        #expect(client.realtimeV2.status == .disconnected)
    }

    @Test func connectWaitsForTheSocket() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        await client.realtimeV2.connect()
        #expect(client.realtimeV2.status == .connected)
        #expect(transport.attempts.count == 1)
        await client.realtimeV2.connect()
        #expect(transport.attempts.count == 1)
    }
}
