import Foundation
import Testing

@testable import SupabaseREST

/// Channels over a scripted socket: the exact frames sent, routing by the server's binding
/// ids, refusals and time limits (Phoenix channels as Supabase Realtime speaks them).
@Suite(.timeLimit(.minutes(10))) struct RealtimeChannelTests {
    static let joinPrefix = #"{"access_token":"anon-key","config":{"broadcast":{"ack":false,"self":false},"postgres_changes":"#
    static let joinSuffix = #","presence":{"enabled":false,"key":""},"private":false}}]"#

    @Test func subscribeConnectsLazilyJoinsAndRoutesChangesByBindingID() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("room")
        #expect(channel.topic == "realtime:room")
        let inserts = StreamCollector(channel.postgresChange(InsertAction.self, table: "locations"))
        let updates = StreamCollector(
            channel.postgresChange(UpdateAction.self, schema: "public", table: "locations", filter: "id=eq.1"))
        #expect(transport.attempts.isEmpty)
        #expect(client.realtimeV2.status == .disconnected)

        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        let attempt = try #require(transport.attempts.first)
        #expect(attempt.url.absoluteString == "wss://project.supabase.co/realtime/v1/websocket?apikey=anon-key&vsn=2.0.0")
        #expect(attempt.headers["apikey"] == anonKey)
        #expect(attempt.headers["X-Client-Info"] == "supabase-swift/2.55.1")
        #expect(attempt.headers["Authorization"] == nil)

        let join = try await socket.next()
        #expect(
            join == #"["1","1","realtime:room","phx_join","# + Self.joinPrefix
                + #"[{"event":"INSERT","schema":"public","table":"locations"},"#
                + #"{"event":"UPDATE","filter":"id=eq.1","schema":"public","table":"locations"}]"# + Self.joinSuffix)
        #expect(channel.status == .subscribing)
        try socket.acceptJoin(join, ids: [11, 12])
        try await subscribing.value
        #expect(channel.status == .subscribed)
        #expect(client.realtimeV2.status == .connected)
        #expect(client.realtimeV2.channels["realtime:room"] === channel)

        try socket.pushChange(topic: "realtime:room", ids: [12], type: "UPDATE", record: ["id": 1, "name": "b"], oldRecord: ["id": 1])
        try socket.pushChange(topic: "realtime:room", ids: [99], type: "INSERT", record: ["id": 3, "name": "stray"])
        try socket.pushChange(topic: "realtime:other", ids: [11], type: "INSERT", record: ["id": 4, "name": "elsewhere"])
        try socket.pushChange(topic: "realtime:room", ids: [11], type: "INSERT", record: ["id": 2, "name": "a"])
        let inserted = try await inserts.first(1)
        #expect(inserted.map(\.record) == [["id": 2, "name": "a"]])
        let updated = try await updates.first(1)
        #expect(updated.first?.oldRecord == ["id": 1])
        #expect(updated.first?.columns == [Column(name: "id", type: "int8"), Column(name: "name", type: "text")])
        // Only the insert routed by id 11 arrived: the stray id and the other topic were dropped.
        try await Task.sleep(for: .milliseconds(50))
        #expect(inserts.items.count == 1)
        #expect(updates.items.count == 1)
    }

    @Test func aChangeForSeveralBindingsReachesEachOnce() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("all")
        let any = StreamCollector(channel.postgresChange(AnyAction.self, table: "locations"))
        let inserts = StreamCollector(channel.postgresChange(InsertAction.self, table: "locations"))
        let deletes = StreamCollector(channel.postgresChange(DeleteAction.self, table: "locations"))
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        try socket.acceptJoin(try await socket.next(), ids: [1, 2, 3])
        try await subscribing.value

        try socket.pushChange(topic: "realtime:all", ids: [1, 2], type: "INSERT", record: ["id": 7])
        try socket.pushChange(topic: "realtime:all", ids: [1, 3], type: "DELETE", record: nil, oldRecord: ["id": 7])
        let seen = try await any.first(2)
        guard case .insert = seen[0], case .delete(let deleted) = seen[1] else {
            Issue.record("expected insert then delete, got \(seen)")
            return
        }
        #expect(deleted.oldRecord == ["id": 7])
        #expect(try await inserts.first(1).first?.record == ["id": 7])
        #expect(try await deletes.first(1).first?.oldRecord == ["id": 7])
        try await Task.sleep(for: .milliseconds(50))
        #expect(any.items.count == 2)
        #expect(inserts.items.count == 1)
        #expect(deletes.items.count == 1)
    }

    @Test func aRefusedJoinThrowsTheServersReason() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("nope")
        let changes = StreamCollector(channel.postgresChange(AnyAction.self, table: "nope"))
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        let join = try RealtimeMessageV2.decode(try await socket.next())
        let reason =
            "Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: [event: *, schema: public, table: nope, filters: []]"
        try socket.reply(to: join, status: "error", response: ["reason": .string(reason)])
        await #expect(throws: RealtimeError.joinRefused(topic: "realtime:nope", reason: reason)) {
            try await subscribing.value
        }
        #expect(channel.status == .unsubscribed)
        #expect(!changes.isFinished)

        // The non-throwing variant returns, leaving the channel unsubscribed.
        let again = Task { await channel.subscribe() }
        let second = try RealtimeMessageV2.decode(try await socket.next())
        #expect(second.event == "phx_join")
        #expect(second.ref == "2")
        try socket.reply(to: second, status: "error", response: ["reason": "still no"])
        await again.value
        #expect(channel.status == .unsubscribed)
    }

    @Test func bindingsThatDoNotMatchTheRequestAreRefusedAndTheChannelLeft() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("m")
        _ = channel.postgresChange(InsertAction.self, table: "locations")
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        let join = try RealtimeMessageV2.decode(try await socket.next())
        try socket.reply(
            to: join, status: "ok",
            response: ["postgres_changes": [["id": 5, "event": "INSERT", "schema": "public", "table": "events"]]])
        await #expect(
            throws: RealtimeError.bindingsMismatch(
                topic: "realtime:m", requested: ["INSERT public.locations"], received: ["INSERT public.events"])
        ) { try await subscribing.value }
        #expect(channel.status == .unsubscribed)
        #expect(try await socket.next() == #"["1","2","realtime:m","phx_leave",{}]"#)
    }

    @Test func aServerThatWidensTheEventToStarStillMatches() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("w")
        let inserts = StreamCollector(channel.postgresChange(InsertAction.self, table: "locations", filter: ""))
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        let join = try RealtimeMessageV2.decode(try await socket.next())
        try socket.reply(
            to: join, status: "ok",
            response: ["postgres_changes": [["id": 8, "event": "*", "schema": "public", "table": "locations"]]])
        try await subscribing.value
        try socket.pushChange(topic: "realtime:w", ids: [8], type: "INSERT", record: ["id": 1])
        #expect(try await inserts.first(1).count == 1)
    }

    @Test func bindingsAddedAfterSubscribingFinishAtOnce() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("late")
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        let join = try await socket.next()
        #expect(join.contains(#""postgres_changes":[]"#))
        try socket.acceptJoin(join, ids: [])
        try await subscribing.value
        let late = StreamCollector(channel.postgresChange(InsertAction.self, table: "locations"))
        try await waitUntil("the late stream to finish") { late.isFinished }
    }

    @Test func unsubscribeSendsLeaveFinishesStreamsAndForgetsTheChannel() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("room")
        let inserts = StreamCollector(channel.postgresChange(InsertAction.self, table: "locations"))
        let statuses = StreamCollector(channel.statusChange)
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        try socket.acceptJoin(try await socket.next(), ids: [3])
        try await subscribing.value

        let leaving = Task { await channel.unsubscribe() }
        let leave = try await socket.next()
        #expect(leave == #"["1","2","realtime:room","phx_leave",{}]"#)
        #expect(channel.status == .unsubscribing)
        try socket.reply(to: try RealtimeMessageV2.decode(leave), status: "ok")
        socket.push(#"["1",null,"realtime:room","phx_close",{}]"#)
        await leaving.value
        #expect(channel.status == .unsubscribed)
        try await waitUntil("the stream to finish") { inserts.isFinished }
        #expect(client.realtimeV2.channels.isEmpty)
        #expect(try await statuses.first(5) == [.unsubscribed, .subscribing, .subscribed, .unsubscribing, .unsubscribed])
    }

    @Test func theServerClosingTheChannelFinishesItsStreams() async throws {
        let transport = FakeSocketTransport()
        let client = makeRealtimeClient(transport)
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("room")
        let inserts = StreamCollector(channel.postgresChange(InsertAction.self, table: "locations"))
        let subscribing = Task { try await channel.subscribeWithError() }
        let socket = try await transport.socket(0)
        try socket.acceptJoin(try await socket.next(), ids: [3])
        try await subscribing.value

        // A close for an older join is not this channel's.
        socket.push(#"["0",null,"realtime:room","phx_close",{}]"#)
        try await Task.sleep(for: .milliseconds(50))
        #expect(channel.status == .subscribed)
        socket.push(#"["1",null,"realtime:room","system",{"extension":"system","message":"Token has expired","status":"error"}]"#)
        socket.push(#"["1",null,"realtime:room","phx_close",{}]"#)
        try await waitUntil("the stream to finish") { inserts.isFinished }
        #expect(channel.status == .unsubscribed)
        #expect(client.realtimeV2.channels.isEmpty)
    }

    @Test func subscribeTimesOutWhenTheSocketNeverOpens() async throws {
        let transport = FakeSocketTransport(script: [.hang, .hang, .hang, .hang])
        let client = makeRealtimeClient(transport, timeout: .milliseconds(200))
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("slow")
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: RealtimeError.timedOut(operation: "subscribe to realtime:slow", after: .milliseconds(200))) {
            try await channel.subscribeWithError()
        }
        // A hang bound, not a speed check: the parallel suite can hold a task for seconds.
        #expect(clock.now - started < .seconds(30))
        #expect(channel.status == .unsubscribed)
    }

    @Test func subscribeTimesOutWhenTheJoinIsNeverAnswered() async throws {
        let transport = FakeSocketTransport()
        // Long enough that the join is usually written first.
        let client = makeRealtimeClient(transport, timeout: .seconds(1))
        defer { client.realtimeV2.disconnect() }
        let channel = client.channel("mute")
        await #expect(throws: RealtimeError.self) { try await channel.subscribeWithError() }
        #expect(channel.status == .unsubscribed)
        // On a loaded machine the timeout can win the race with the join; then nothing went out and
        // nothing may follow. Otherwise the server may yet join the channel: it is left, so nothing
        // arrives unrouted. A join left standing waits here (30 s) and fails.
        var frames: [String] = []
        let deadline = ContinuousClock.now + .seconds(30)
        repeat {
            try await Task.sleep(for: .milliseconds(300))
            frames = transport.sockets.first?.sent.filter { !$0.contains(#""phoenix","heartbeat""#) } ?? []
        } while frames.count == 1 && ContinuousClock.now < deadline
        if !frames.isEmpty {
            #expect(frames.count == 2 && frames[0].contains(#""phx_join""#), "\(frames)")
            #expect(frames.last == #"["1","2","realtime:mute","phx_leave",{}]"#)
        }
    }
}
