import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// `RealtimeLimits` over real sockets: each limit refused as a client sees it (a Phoenix error
/// reply for a join or a message, a close for the socket), each configurable.
@Suite("/realtime/v1 limits")
struct RealtimeLimitTests {
    static func open(_ server: TestServer) async throws -> RealtimeTestSocket {
        try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
    }

    /// Joins `topic` with `count` bindings on `table` and returns the reply's status and reason.
    static func join(
        _ socket: RealtimeTestSocket, topic: String, table: String = "locations", filters: [String?] = [nil],
        token: String? = nil, ref: String
    ) async throws -> (status: String?, reason: String?) {
        let bindings: [[String: any Sendable]] = filters.map { filter in
            var binding: [String: any Sendable] = ["event": "*", "schema": "public", "table": table]
            if let filter { binding["filter"] = filter }
            return binding
        }
        var payload: [String: any Sendable] = ["config": ["postgres_changes": bindings] as [String: any Sendable]]
        if let token { payload["access_token"] = token }
        try socket.send(topic: topic, event: "phx_join", payload: payload, ref: ref, joinRef: ref)
        let reply = try await socket.nextObject(where: { $0["event"] as? String == "phx_reply" && $0["ref"] as? String == ref })
        let body = reply["payload"] as? [String: any Sendable]
        return (body?["status"] as? String, (body?["response"] as? [String: any Sendable])?["reason"] as? String)
    }

    /// Frames until the socket closes; the close's code and reason.
    static func closing(_ socket: RealtimeTestSocket) async throws -> (code: String, reason: String?) {
        while true {
            if case .closed(let code, let reason) = try await socket.next() { return (code, reason) }
        }
    }

    @Test("too many bindings in a join, or channels on a socket, are refused with an error reply", arguments: Engine.allCases)
    func joinLimits(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) {
            $0.realtimeLimits.channelsPerSocket = 2
            $0.realtimeLimits.bindingsPerJoin = 2
        }
        defer { Task { await server.stop() } }
        let socket = try await Self.open(server)

        let crowded = try await Self.join(socket, topic: "realtime:crowded", filters: [nil, "name=eq.a", "name=eq.b"], ref: "1")
        #expect(crowded.status == "error")
        #expect(crowded.reason == "Too many postgres_changes in one join: at most 2")

        #expect(try await Self.join(socket, topic: "realtime:a", filters: [nil, "name=eq.a"], ref: "2").status == "ok")
        #expect(try await Self.join(socket, topic: "realtime:b", ref: "3").status == "ok")
        let third = try await Self.join(socket, topic: "realtime:c", ref: "4")
        #expect(third.status == "error")
        #expect(third.reason == "Too many channels on this socket: at most 2")
        // Joining a channel again replaces it: no new channel.
        #expect(try await Self.join(socket, topic: "realtime:a", ref: "5").status == "ok")
        try socket.send(topic: "realtime:b", event: "phx_leave", ref: "6", joinRef: "3")
        _ = try await socket.nextObject(where: { $0["ref"] as? String == "6" })
        #expect(try await Self.join(socket, topic: "realtime:c", ref: "7").status == "ok")
        // A filter that does not parse is still refused as before.
        let bad = try await Self.join(socket, topic: "realtime:a", filters: ["name~red"], ref: "8")
        #expect(bad.status == "error")
        #expect(bad.reason?.contains("is not of the form column=operator.value") == true)

        let metrics = try await server.scrapeMetrics().text
        #expect(metrics.contains("realtime_refusals_total{limit=\"channels_per_socket\"} 1"))
        #expect(metrics.contains("realtime_refusals_total{limit=\"bindings_per_join\"} 1"))
        await socket.close()
    }

    @Test("a person's joins on more sockets than allowed are refused until one closes", arguments: Engine.allCases)
    func socketsPerUser(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.realtimeLimits.socketsPerUser = 2 }
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let first = try await Self.open(server)
        let second = try await Self.open(server)
        let third = try await Self.open(server)
        #expect(try await Self.join(first, topic: "realtime:one", token: alice.accessToken, ref: "1").status == "ok")
        #expect(try await Self.join(first, topic: "realtime:two", token: alice.accessToken, ref: "2").status == "ok")
        #expect(try await Self.join(second, topic: "realtime:one", token: alice.accessToken, ref: "1").status == "ok")
        let refused = try await Self.join(third, topic: "realtime:one", token: alice.accessToken, ref: "1")
        #expect(refused.status == "error")
        #expect(refused.reason == "Too many sockets for this user: at most 2")
        // Someone else, or the anon key, on that socket is another matter.
        #expect(try await Self.join(third, topic: "realtime:bob", token: bob.accessToken, ref: "2").status == "ok")
        #expect(try await Self.join(third, topic: "realtime:anon", ref: "3").status == "ok")
        // A token refresh that would make that socket Alice's third is refused too: the channel closes.
        try third.send(topic: "realtime:bob", event: "access_token", payload: ["access_token": alice.accessToken], ref: "4", joinRef: "2")
        let notice = try await third.nextObject(where: {
            $0["event"] as? String == "system" && ($0["payload"] as? [String: any Sendable])?["status"] as? String == "error"
        })
        #expect((notice["payload"] as? [String: any Sendable])?["message"] as? String == "Too many sockets for this user: at most 2")

        await first.close()
        // The server counts the closed socket out shortly after it ends.
        var status: String?
        for attempt in 0..<100 where status != "ok" {
            status = try await Self.join(third, topic: "realtime:retry\(attempt)", token: alice.accessToken, ref: "r\(attempt)").status
            if status != "ok" { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(status == "ok")
        await second.close()
        await third.close()
    }

    @Test("sockets over the limit for one address are refused with 429 until one closes", arguments: Engine.allCases)
    func socketsPerAddress(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.realtimeLimits.socketsPerAddress = 3 }
        defer { Task { await server.stop() } }
        var open: [RealtimeTestSocket] = []
        for index in 0..<3 {
            let socket = try await Self.open(server)
            try socket.send(topic: "phoenix", event: "heartbeat", ref: "hb\(index)")
            #expect(try await socket.nextObject()["ref"] as? String == "hb\(index)")
            open.append(socket)
        }
        // Refused before the upgrade: the socket never opens, and the HTTP answer says why.
        let extra = try await Self.open(server)
        let closed = try await Self.closing(extra)
        #expect(closed.code == "error")
        await extra.close()
        let answer = try await server.request("GET", "/realtime/v1/websocket?vsn=1.0.0")
        #expect(answer.status == 429)
        #expect(answer.json?["message"] as? String == "Too many sockets from this address: at most 3")

        await open.removeFirst().close()
        var admitted = false
        for _ in 0..<100 where !admitted {
            let socket = try await Self.open(server)
            try socket.send(topic: "phoenix", event: "heartbeat", ref: "again")
            if case .text = try await socket.next() {
                admitted = true
                open.append(socket)
            } else {
                await socket.close()
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(admitted)
        let metrics = try await server.scrapeMetrics().text
        #expect(metrics.contains("realtime_refusals_total{limit=\"sockets_per_address\"}"))
        for socket in open { await socket.close() }
    }

    @Test("a message over the size limit closes its socket with 1009", arguments: Engine.allCases)
    func messageSize(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.realtimeLimits.maxMessageBytes = 1024 }
        defer { Task { await server.stop() } }
        let small = try await Self.open(server)
        try small.send(topic: "phoenix", event: "heartbeat", payload: ["pad": String(repeating: "x", count: 800)], ref: "ok")
        #expect((try await small.nextObject()["payload"] as? [String: any Sendable])?["status"] as? String == "ok")

        let large = try await Self.open(server)
        try large.send(topic: "phoenix", event: "heartbeat", payload: ["pad": String(repeating: "x", count: 2_000)], ref: "big")
        let closed = try await Self.closing(large)
        #expect(closed.code == "messageTooLarge")
        await large.close()
        // Other sockets carry on.
        try small.send(topic: "phoenix", event: "heartbeat", ref: "still")
        #expect(try await small.nextObject()["ref"] as? String == "still")
        await small.close()
    }

    @Test("messages over the rate get error replies, and a socket that keeps on is closed", arguments: Engine.allCases)
    func messageRate(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.realtimeLimits.messagesPerSecond = 5 }
        defer { Task { await server.stop() } }
        let socket = try await Self.open(server)
        // Sent at once: whatever the machine's speed, 40 frames come faster than 5 a second.
        for index in 0..<40 { try socket.send(topic: "phoenix", event: "heartbeat", ref: "hb\(index)") }
        var statuses: [String] = []
        var reasons: Set<String> = []
        var close: (code: String, reason: String?)?
        while close == nil {
            switch try await socket.next() {
            case .text(let text):
                let frame = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: any Sendable])
                let payload = frame["payload"] as? [String: any Sendable]
                statuses.append(payload?["status"] as? String ?? "")
                if let reason = (payload?["response"] as? [String: any Sendable])?["reason"] as? String { reasons.insert(reason) }
            case .closed(let code, let reason):
                close = (code, reason)
            }
        }
        #expect(statuses.prefix(5).allSatisfy { $0 == "ok" })
        #expect(statuses.contains("error"))
        #expect(reasons == ["Too many messages: at most 5 a second"])
        #expect(statuses.count < 40)
        #expect(close?.reason == "Too many messages: at most 5 a second")
        await socket.close()

        // A socket within the rate is untouched.
        let calm = try await Self.open(server)
        for index in 0..<3 {
            try calm.send(topic: "phoenix", event: "heartbeat", ref: "calm\(index)")
            #expect((try await calm.nextObject()["payload"] as? [String: any Sendable])?["status"] as? String == "ok")
        }
        await calm.close()
    }
}
