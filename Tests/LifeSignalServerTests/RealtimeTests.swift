import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `/realtime/v1/websocket` over a real socket: the Phoenix subset, `postgres_changes`
/// delivery, per-subscriber access, and refusals.
@Suite("/realtime/v1 postgres_changes")
struct RealtimeTests {
    /// Joins `topic` with one `postgres_changes` binding and returns the reply's payload.
    static func join(
        _ socket: RealtimeTestSocket, topic: String = "realtime:test", table: String, event: String = "*",
        filter: String? = nil, token: String? = nil, ref: String = "1"
    ) async throws -> [String: any Sendable] {
        var binding: [String: any Sendable] = ["event": event, "schema": "public", "table": table]
        if let filter { binding["filter"] = filter }
        var payload: [String: any Sendable] = [
            "config": ["broadcast": ["ack": false, "self": false], "presence": ["key": ""], "postgres_changes": [binding], "private": false]
                as [String: any Sendable]
        ]
        if let token { payload["access_token"] = token }
        try socket.send(topic: topic, event: "phx_join", payload: payload, ref: ref, joinRef: ref)
        let reply = try await socket.nextObject(where: { $0["event"] as? String == "phx_reply" && $0["ref"] as? String == ref })
        return try #require(reply["payload"] as? [String: any Sendable])
    }

    /// Inserts a system notification for `owner` with the service key; returns the status.
    static func notify(_ owner: IssuedSession, _ title: String, server: TestServer, test: TestBackend) async throws -> Int {
        let row: [String: any Sendable] = [
            "user_id": owner.user.id.description, "type": "system", "title": title, "body": "b",
            "created_at": Timestamp.format(test.clock.now),
        ]
        return try await server.request(
            "POST", "/rest/v1/notifications", apiKey: .some(server.serviceKey), bearer: server.serviceKey,
            body: try JSONSerialization.data(withJSONObject: row)
        ).status
    }

    static func change(_ frame: [String: any Sendable]) -> [String: any Sendable]? {
        guard frame["event"] as? String == "postgres_changes", let payload = frame["payload"] as? [String: any Sendable] else { return nil }
        return payload["data"] as? [String: any Sendable]
    }

    static func nextChange(_ socket: RealtimeTestSocket) async throws -> (ids: [Int], data: [String: any Sendable]) {
        let frame = try await socket.nextObject(where: { change($0) != nil })
        let payload = try #require(frame["payload"] as? [String: any Sendable])
        return (payload["ids"] as? [Int] ?? [], try #require(change(frame)))
    }

    @Test("heartbeat, join, and INSERT/UPDATE/DELETE of a content row reach the subscriber", arguments: Engine.allCases)
    func contentChanges(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")

        try socket.send(topic: "phoenix", event: "heartbeat", ref: "hb-1")
        let beat = try await socket.nextObject()
        #expect(beat["event"] as? String == "phx_reply")
        #expect(beat["ref"] as? String == "hb-1")
        #expect((beat["payload"] as? [String: any Sendable])?["status"] as? String == "ok")

        let reply = try await Self.join(socket, table: "locations", token: alice.accessToken)
        #expect(reply["status"] as? String == "ok")
        let bindings = try #require((reply["response"] as? [String: any Sendable])?["postgres_changes"] as? [[String: any Sendable]])
        #expect(bindings.count == 1)
        #expect(bindings.first?["table"] as? String == "locations")
        #expect(bindings.first?["event"] as? String == "*")
        #expect(bindings.first?["filter"] == nil)
        let id = try #require(bindings.first?["id"] as? Int)
        let system = try await socket.nextObject(where: { $0["event"] as? String == "system" })
        #expect((system["payload"] as? [String: any Sendable])?["message"] as? String == "Subscribed to PostgreSQL")

        let created = try await server.json(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            headers: ["Prefer": "return=representation", "Accept": "application/vnd.pgrst.object+json"],
            ["name": "Old Mill", "slug": "old-mill", "created_by": alice.user.id.description])
        let rowID = try #require(created.json?["id"] as? String)
        let insert = try await Self.nextChange(socket)
        #expect(insert.ids == [id])
        #expect(insert.data["type"] as? String == "INSERT")
        #expect(insert.data["table"] as? String == "locations")
        #expect(insert.data["schema"] as? String == "public")
        let record = try #require(insert.data["record"] as? [String: any Sendable])
        #expect(record["id"] as? String == rowID)
        #expect(record["name"] as? String == "Old Mill")
        #expect(record["sort_order"] as? Int == 0)
        #expect(insert.data["old_record"] == nil)
        let columns = try #require(insert.data["columns"] as? [[String: any Sendable]])
        #expect(columns.contains { $0["name"] as? String == "id" && $0["type"] as? String == "uuid" })
        #expect((insert.data["commit_timestamp"] as? String)?.hasSuffix("Z") == true)

        _ = try await server.json("PATCH", "/rest/v1/locations?id=eq.\(rowID)", bearer: alice.accessToken, ["name": "New Mill"])
        let update = try await Self.nextChange(socket)
        #expect(update.data["type"] as? String == "UPDATE")
        #expect((update.data["record"] as? [String: any Sendable])?["name"] as? String == "New Mill")
        #expect((update.data["old_record"] as? [String: any Sendable])?["id"] as? String == rowID)

        _ = try await server.request("DELETE", "/rest/v1/locations?id=eq.\(rowID)", bearer: alice.accessToken)
        let delete = try await Self.nextChange(socket)
        #expect(delete.data["type"] as? String == "DELETE")
        #expect(delete.data["record"] == nil)
        #expect((delete.data["old_record"] as? [String: any Sendable])?["id"] as? String == rowID)

        try socket.send(topic: "realtime:test", event: "phx_leave", ref: "9", joinRef: "1")
        let left = try await socket.nextObject(where: { $0["ref"] as? String == "9" })
        #expect((left["payload"] as? [String: any Sendable])?["status"] as? String == "ok")
        let closed = try await socket.nextObject()
        #expect(closed["event"] as? String == "phx_close")
        await socket.close()
    }

    @Test("the 2.0.0 array framing, and a filter that keeps only matching rows", arguments: Engine.allCases)
    func arrayFramingAndFilter(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=2.0.0")
        socket.send(
            """
            ["3","3","realtime:events","phx_join",{"config":{"postgres_changes":[{"event":"INSERT","schema":"public","table":"events","filter":"name=eq.Harvest Fair"}]},"access_token":"\(alice.accessToken)"}]
            """)
        guard case .text(let replyText) = try await socket.next() else {
            Issue.record("no reply")
            return
        }
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(replyText.utf8)) as? [any Sendable])
        #expect(reply.count == 5)
        #expect(reply[0] as? String == "3")
        #expect(reply[3] as? String == "phx_reply")
        #expect((reply[4] as? [String: any Sendable])?["status"] as? String == "ok")

        for name in ["Spring Walk", "Harvest Fair"] {
            let made = try await server.json(
                "POST", "/rest/v1/events", bearer: alice.accessToken,
                [
                    "name": name, "slug": name.lowercased().replacingOccurrences(of: " ", with: "-"),
                    "created_by": alice.user.id.description,
                ])
            #expect(made.status == 201)
        }
        // The first change frame must be the matching row: the other one was filtered out.
        while true {
            guard case .text(let text) = try await socket.next() else {
                Issue.record("socket closed")
                return
            }
            let frame = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [any Sendable])
            guard frame[3] as? String == "postgres_changes" else { continue }
            #expect(frame[0] is NSNull)
            #expect(frame[2] as? String == "realtime:events")
            let data = (frame[4] as? [String: any Sendable])?["data"] as? [String: any Sendable]
            #expect((data?["record"] as? [String: any Sendable])?["name"] as? String == "Harvest Fair")
            break
        }
        await socket.close()
    }

    @Test("a subscriber receives only the rows its policies let it read", arguments: Engine.allCases)
    func perSubscriberAccess(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        let reply = try await Self.join(socket, table: "notifications", event: "INSERT", token: alice.accessToken)
        #expect(reply["status"] as? String == "ok")

        for (owner, title) in [(bob, "for bob"), (alice, "for alice")] {
            #expect(try await Self.notify(owner, title, server: server, test: test) == 201)
        }
        // Commit order is delivery order: had Bob's row leaked, it would come first.
        let change = try await Self.nextChange(socket)
        #expect((change.data["record"] as? [String: any Sendable])?["title"] as? String == "for alice")
        await socket.close()
    }

    @Test("joins that can never deliver are refused with a reason", arguments: Engine.allCases)
    func refusedJoins(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        let cases: [(table: String, filter: String?, token: String?, reason: String)] = [
            ("auth_users", nil, alice.accessToken, "Unable to subscribe"),
            ("push_tokens", nil, alice.accessToken, "Unable to subscribe"),
            ("nope", nil, alice.accessToken, "Unable to subscribe"),
            ("notifications", nil, nil, "permission denied for table notifications"),
            ("locations", "colour=eq.red", alice.accessToken, "column \"colour\" does not exist"),
            ("locations", "name~red", alice.accessToken, "is not of the form column=operator.value"),
            ("locations", nil, "not-a-jwt", "Invalid token"),
        ]
        for (index, refused) in cases.enumerated() {
            let reply = try await Self.join(
                socket, topic: "realtime:r\(index)", table: refused.table, filter: refused.filter,
                token: refused.token, ref: "r\(index)")
            #expect(reply["status"] as? String == "error", "\(refused.table)")
            let reason = (reply["response"] as? [String: any Sendable])?["reason"] as? String
            #expect(reason?.contains(refused.reason) == true, "\(refused.table): \(reason ?? "nil")")
        }
        try socket.send(topic: "realtime:never-joined", event: "broadcast", ref: "x")
        let unmatched = try await socket.nextObject()
        #expect(((unmatched["payload"] as? [String: any Sendable])?["response"] as? [String: any Sendable])?["reason"] as? String == "unmatched topic")
        await socket.close()
    }

    @Test("a refreshed token is used for later changes; a bad one closes the channel", arguments: Engine.allCases)
    func tokenRefresh(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        _ = try await Self.join(socket, table: "locations", token: alice.accessToken)
        try socket.send(topic: "realtime:test", event: "access_token", payload: ["access_token": "forged.token.value"], ref: "2", joinRef: "1")
        let notice = try await socket.nextObject(where: {
            $0["event"] as? String == "system" && ($0["payload"] as? [String: any Sendable])?["status"] as? String == "error"
        })
        #expect(((notice["payload"] as? [String: any Sendable])?["message"] as? String)?.contains("Invalid token") == true)
        let closed = try await socket.nextObject()
        #expect(closed["event"] as? String == "phx_close")
        await socket.close()
    }

    @Test("bad frames close that socket only; bad keys and plain GETs get HTTP errors", arguments: Engine.allCases)
    func badInput(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let broken = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        broken.send("{not json")
        let ending = try await broken.next()
        guard case .closed(_, let reason) = ending else {
            Issue.record("expected the socket to close, got \(ending)")
            return
        }
        #expect(reason?.contains("not JSON") == true)
        await broken.close()

        let noKey = try await server.request("GET", "/realtime/v1/websocket?vsn=1.0.0", apiKey: .some(nil))
        #expect(noKey.status == 401)
        let plain = try await server.request("GET", "/realtime/v1/websocket?vsn=1.0.0")
        #expect(plain.status == 400)
        let badVersion = try await server.request("GET", "/realtime/v1/websocket?vsn=9.9.9")
        #expect(badVersion.status == 400)
        #expect(badVersion.json?["message"] as? String == "Unsupported vsn \"9.9.9\": this server speaks 1.0.0 and 2.0.0")

        // The server still serves sockets after all that.
        let healthy = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        try healthy.send(topic: "phoenix", event: "heartbeat", ref: "7")
        #expect(try await healthy.nextObject()["ref"] as? String == "7")
        await healthy.close()
    }

    /// The server's `realtime_row_reads_total`.
    static func rowReads(_ server: TestServer) async throws -> Int {
        let text = try await server.scrapeMetrics().text
        let line = text.split(separator: "\n").first { $0.hasPrefix("realtime_row_reads_total ") }
        return Int(Double(line?.split(separator: " ").last ?? "") ?? -1)
    }

    /// Joins `topic` with one `postgres_changes` entry per filter.
    static func join(
        _ socket: RealtimeTestSocket, topic: String, table: String, event: String = "*",
        filters: [String], token: String, ref: String
    ) async throws -> String? {
        let bindings: [[String: any Sendable]] = filters.map { ["event": event, "schema": "public", "table": table, "filter": $0] }
        try socket.send(
            topic: topic, event: "phx_join",
            payload: ["config": ["postgres_changes": bindings] as [String: any Sendable], "access_token": token], ref: ref, joinRef: ref)
        let reply = try await socket.nextObject(where: { $0["event"] as? String == "phx_reply" && $0["ref"] as? String == ref })
        return (reply["payload"] as? [String: any Sendable])?["status"] as? String
    }

    @Test("subscribers who would read a change alike share one read; others still see only their own", arguments: Engine.allCases)
    func groupedReads(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let aliceFilter = "user_id=eq.\(alice.user.id.description)"
        // Twelve channels as Alice with one filter, on two sockets; two as Bob with the same filter.
        var aliceSockets: [RealtimeTestSocket] = []
        for _ in 0..<2 {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            for index in 0..<6 {
                #expect(
                    try await Self.join(
                        socket, topic: "realtime:n\(index)", table: "notifications", event: "INSERT",
                        filters: [aliceFilter], token: alice.accessToken, ref: "j\(index)") == "ok")
            }
            aliceSockets.append(socket)
        }
        let bobSocket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        for index in 0..<2 {
            #expect(
                try await Self.join(
                    bobSocket, topic: "realtime:b\(index)", table: "notifications", event: "INSERT",
                    filters: [aliceFilter, "user_id=eq.\(bob.user.id.description)"], token: bob.accessToken, ref: "b\(index)") == "ok")
        }
        let before = try await Self.rowReads(server)
        for (owner, title) in [(alice, "for alice"), (bob, "for bob")] {
            #expect(try await Self.notify(owner, title, server: server, test: test) == 201)
        }
        for socket in aliceSockets {
            var topics: Set<String> = []
            for _ in 0..<6 {
                let frame = try await socket.nextObject(where: { Self.change($0) != nil })
                topics.insert(frame["topic"] as? String ?? "")
                #expect((Self.change(frame)?["record"] as? [String: any Sendable])?["title"] as? String == "for alice")
            }
            #expect(topics.count == 6)
        }
        // Bob's first change is his own row: Alice's, though his filter names her, never reached him.
        for _ in 0..<2 {
            let change = try await Self.nextChange(bobSocket)
            #expect((change.data["record"] as? [String: any Sendable])?["title"] as? String == "for bob")
            #expect(change.ids.count == 1)
        }
        // Each row is read three times, whoever it belongs to: once for Alice's twelve channels,
        // once for each of Bob's two filters (his two channels share them).
        let reads = try await Self.rowReads(server) - before
        #expect(reads == 6)
        for socket in aliceSockets + [bobSocket] { await socket.close() }
    }

    @Test("writes complete promptly while thousands of bindings are read for each change", arguments: Engine.allCases)
    func writesWhileFannedOut(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        // 4 sockets × 40 channels × 20 bindings, every filter different: 3,200 reads a check-in,
        // each finding the row. Joins are paced under the per-socket message rate.
        var sockets: [RealtimeTestSocket] = []
        for _ in 0..<4 {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            for index in 0..<40 {
                let filters = (0..<20).map { _ in "user_id=neq.\(UUID().uuidString.lowercased())" }
                #expect(
                    try await Self.join(
                        socket, topic: "realtime:c\(index)", table: "check_ins", event: "INSERT",
                        filters: filters, token: alice.accessToken, ref: "c\(index)") == "ok")
            }
            sockets.append(socket)
        }
        let clock = ContinuousClock()
        // A person's second check-in within minutes is refused as too soon: each is someone else's.
        var people = [alice]
        for index in 0..<4 { people.append(try await test.signIn("+1555000300\(index)")) }
        for person in people {
            let started = clock.now
            let answer = try await server.request("POST", "/functions/v1/check-in", bearer: person.accessToken)
            #expect(answer.status == 200)
            #expect(started.duration(to: clock.now) < .seconds(10), "a check-in waited behind the fan-out")
        }
        // The fan-out did run: Alice's check-in reached her subscriber, with all 20 of its bindings.
        let first = try await Self.nextChange(sockets[0])
        #expect(first.data["table"] as? String == "check_ins")
        #expect(first.ids.count == 20)
        #expect(try await Self.rowReads(server) >= 3_200)
        for socket in sockets { await socket.close() }
    }

    @Test("two servers on one PostgreSQL database stream each other's changes")
    func changesCrossServers() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let first = try await TestServer.start(test.backend)
        defer { Task { await first.stop() } }
        let secondBackend = try await TestDatabases.reopen(test)
        let second = try await TestServer.start(secondBackend.backend)
        defer { Task { await second.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let socket = try await RealtimeTestSocket.connect(first, query: "apikey=\(first.anonKey)&vsn=1.0.0")
        _ = try await Self.join(socket, table: "routes", event: "INSERT", token: alice.accessToken)

        let made = try await second.json(
            "POST", "/rest/v1/routes", bearer: alice.accessToken,
            ["name": "Ridge Loop", "slug": "ridge-loop", "created_by": alice.user.id.description])
        #expect(made.status == 201)
        let change = try await Self.nextChange(socket)
        #expect((change.data["record"] as? [String: any Sendable])?["name"] as? String == "Ridge Loop")
        await socket.close()
    }
}
