import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

/// What a stranger's query string can make the server do: nothing that traps, overflows the
/// stack or takes time out of proportion to its length. Each refusal is PostgREST's 400
/// `PGRST100` before any SQL runs, and the database is unchanged.
@Suite("/rest/v1 query limits")
struct QueryLimitTests {
    /// `name.eq.x` `count` times, joined by commas.
    private func conditions(_ count: Int, value: String = "x") -> String {
        Array(repeating: "name.eq.\(value)", count: count).joined(separator: ",")
    }

    /// `or=(or(or(…name.eq.x…)))`, `depth` groups in all.
    private func nested(_ depth: Int) -> String {
        String(repeating: "or(", count: depth - 1) + "name.eq.x" + String(repeating: ")", count: depth - 1)
    }

    private func expectRefused(_ reply: TestServer.Reply, detail: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 400, "\(reply.status) \(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.json?["code"] as? String == "PGRST100", "\(reply.text)", sourceLocation: sourceLocation)
        #expect((reply.json?["details"] as? String)?.contains(detail) == true, "\(reply.text)", sourceLocation: sourceLocation)
    }

    @Test("on SQLite the server's statement deadline is its reads' deadline (PostgreSQL's closes the connection)")
    func sqliteReadsTakeTheStatementDeadline() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let database = try #require(test.backend.database as? SQLiteDatabase)
        #expect(database.readDeadline == .seconds(600))
        let server = try await TestServer.start(test.backend) { $0.databaseStatementDeadline = .seconds(7) }
        defer { Task { await server.stop() } }
        #expect(database.readDeadline == .seconds(7))
    }

    @Test("Range and offset at Int.max and past it are answered, never trapped on", arguments: Engine.allCases)
    func hugeRanges(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550007001")
        for index in 0..<3 {
            let made = try await server.json(
                "POST", "/rest/v1/locations", bearer: alice.accessToken,
                ["name": "place \(index)", "slug": "place-\(index)", "status": "published", "created_by": alice.user.id.description])
            #expect(made.status == 201)
        }
        let max = String(Int.max)
        let cases: [(query: String, range: String?, rows: Int)] = [
            ("", "0-\(max)", 3),
            ("", "0-99999999999999999999999999", 3),
            ("", "1-", 2),
            ("offset=\(max)", "5-", 0),
            ("limit=\(max)&offset=\(max)", nil, 0),
            ("limit=\(max)&offset=1", "0-\(max)", 2),
            ("limit=\(max)", "\(max)-\(max)", 0),
            ("offset=99999999999999999999999", "0-1", 2),
        ]
        for item in cases {
            let headers = item.range.map { ["Range": $0] } ?? [:]
            let reply = try await server.request("GET", "/rest/v1/locations?select=name&order=name&\(item.query)", headers: headers)
            #expect(reply.status == 200, "\(item) → \(reply.status) \(reply.text)")
            #expect(reply.jsonArray?.count == item.rows, "\(item) → \(reply.text)")
        }
        let counted = try await server.request(
            "GET", "/rest/v1/locations?select=name&offset=\(max)",
            headers: ["Prefer": "count=exact", "Range": "0-\(max)"])
        #expect(counted.status == 416, "\(counted.status) \(counted.text)")
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("a logic tree nested thousands deep is refused on every verb, and nothing changes", arguments: Engine.allCases)
    func deepNesting(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550007002")
        let made = try await server.json(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            ["name": "x", "slug": "x", "status": "published", "created_by": alice.user.id.description])
        #expect(made.status == 201)
        let deep = nested(2_000)
        for method in ["GET", "HEAD", "PATCH", "DELETE"] {
            let reply = try await server.request(
                method, "/rest/v1/locations?or=(\(deep))", bearer: alice.accessToken,
                body: method == "PATCH" ? Data(#"{"name":"changed"}"#.utf8) : nil)
            if method == "HEAD" {
                #expect(reply.status == 400, "HEAD → \(reply.status)")
            } else {
                expectRefused(reply, detail: "nested deeper than 10 levels")
            }
        }
        // The negated forms and `and` are bounded alike; ten levels is still a query.
        expectRefused(
            try await server.request("GET", "/rest/v1/locations?not.and=(\(deep.replacingOccurrences(of: "or(", with: "and(")))"),
            detail: "nested deeper")
        let ten = try await server.request("GET", "/rest/v1/locations?select=name&or=(\(nested(10)))")
        #expect(ten.status == 200, "\(ten.text)")
        #expect(ten.jsonArray?.count == 1)
        expectRefused(try await server.request("GET", "/rest/v1/locations?or=(\(nested(11)))"), detail: "nested deeper than 10 levels")
        let rows = try await test.backend.database.query(SQL.raw("SELECT name FROM locations"))
        #expect(rows.map { try? $0.string("name") } == ["x"], "no refused write changed the row")
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("conditions and in-list values are capped per request; up to the cap the query runs", arguments: Engine.allCases)
    func conditionCaps(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        // 200 `or` items: SQLite's expression-depth limit (1,000) is not reached.
        let wide = try await server.request("GET", "/rest/v1/locations?select=name&or=(\(conditions(200)))")
        #expect(wide.status == 200, "\(wide.status) \(wide.text)")
        expectRefused(try await server.request("GET", "/rest/v1/locations?or=(\(conditions(201)))"), detail: "more than 200 conditions")
        // A query string of 2,500 conditions is refused at the cap, not parsed to its end first.
        expectRefused(try await server.request("GET", "/rest/v1/locations?or=(\(conditions(2_500)))"), detail: "more than 200 conditions")
        // Top-level filters and tree leaves count together.
        let anded = Array(repeating: "name=neq.y", count: 150).joined(separator: "&")
        expectRefused(try await server.request("GET", "/rest/v1/locations?\(anded)&or=(\(conditions(60)))"), detail: "more than 200 conditions")
        let manyAnded = Array(repeating: "name=neq.y", count: 1_500).joined(separator: "&")
        expectRefused(try await server.request("GET", "/rest/v1/locations?\(manyAnded)"), detail: "more than 200 conditions")
        let thousand = (0..<1_000).map { "v\($0)" }.joined(separator: ",")
        let list = try await server.request("GET", "/rest/v1/locations?select=name&name=in.(\(thousand))")
        #expect(list.status == 200, "\(list.status) \(list.text)")
        expectRefused(try await server.request("GET", "/rest/v1/locations?name=in.(\(thousand),one-more)"), detail: "more than 1000 values")
        expectRefused(try await server.request("GET", "/rest/v1/locations?or=(name.in.(\(thousand)),slug.in.(a))"), detail: "more than 1000 values")
        let select = Array(repeating: "name", count: 201).joined(separator: ",")
        expectRefused(try await server.request("GET", "/rest/v1/locations?select=\(select)"), detail: "more than 200 items")
        let order = Array(repeating: "name.asc", count: 17).joined(separator: ",")
        expectRefused(try await server.request("GET", "/rest/v1/locations?order=\(order)"), detail: "more than 16 terms")
        #expect(try await server.request("GET", "/health").status == 200)
    }

    @Test("trailing input after a tree or list is refused; names are checked by scalar", arguments: Engine.allCases)
    func strictGrammar(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550007003")
        let made = try await server.json(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            ["name": "Örebro", "slug": "orebro", "status": "published", "created_by": alice.user.id.description])
        #expect(made.status == 201)
        for query in ["or=(name.eq.x)tail", "name=in.(a,b)tail", "or=(name.eq.x", "or=name.eq.x", "or=()"] {
            let reply = try await server.request("GET", "/rest/v1/locations?\(query)")
            #expect(reply.status == 400, "\(query) → \(reply.status) \(reply.text)")
            #expect(reply.json?["code"] as? String == "PGRST100", "\(query) → \(reply.text)")
        }
        // A quote followed by a combining mark is one `Character` but still a quote byte.
        let quoteAndMark = "a\"\u{301}:name"
        let quoted = try #require(quoteAndMark.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let refused = try await server.request("GET", "/rest/v1/locations?select=\(quoted)")
        #expect(refused.status == 400, "\(refused.status) \(refused.text)")
        // A non-ASCII alias, composed or decomposed, is a name.
        for alias in ["nåme", "na\u{30A}me"] {
            let encoded = try #require("\(alias):name".addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let reply = try await server.request("GET", "/rest/v1/locations?select=\(encoded)")
            #expect(reply.status == 200, "\(alias) → \(reply.status) \(reply.text)")
            #expect(reply.jsonArray?.first?[alias] as? String == "Örebro", "\(reply.text)")
        }
        // Values keep their text: quoted commas and parentheses.
        let rawTree = #"(name.eq."a,b)",name.in.("Örebro",x),slug.eq.zz)"#
        let tree = try #require(rawTree.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let kept = try await server.request("GET", "/rest/v1/locations?select=name&or=\(tree)")
        #expect(kept.status == 200, "\(kept.text)")
        #expect(kept.jsonArray?.count == 1)
    }

    @Test("a read returns at most maxRows rows, after limit and Range; the count tells the rest", arguments: Engine.allCases)
    func maxRows(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.queryLimits.maxRows = 3 }
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550007004")
        let rows = (0..<5).map { ["name": "n\($0)", "slug": "s\($0)", "status": "published", "created_by": alice.user.id.description] }
        let bulk = try await server.request(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            body: try JSONSerialization.data(withJSONObject: rows))
        #expect(bulk.status == 201, "\(bulk.text)")
        let capped = try await server.request("GET", "/rest/v1/locations?select=name&order=name", headers: ["Prefer": "count=exact"])
        #expect(capped.status == 206, "\(capped.status) \(capped.text)")
        #expect(capped.jsonArray?.compactMap { $0["name"] as? String } == ["n0", "n1", "n2"])
        #expect(capped.header("content-range") == "0-2/5")
        let page = try await server.request("GET", "/rest/v1/locations?select=name&order=name&offset=3")
        #expect(page.jsonArray?.compactMap { $0["name"] as? String } == ["n3", "n4"])
        let small = try await server.request("GET", "/rest/v1/locations?select=name&order=name&limit=2")
        #expect(small.jsonArray?.count == 2, "a smaller limit stands")
        let ranged = try await server.request("GET", "/rest/v1/locations?select=name&order=name", headers: ["Range": "1-4"])
        #expect(ranged.jsonArray?.compactMap { $0["name"] as? String } == ["n1", "n2", "n3"])
    }

    @Test("a Realtime filter nested thousands deep is refused with a Phoenix error, and the socket lives on", arguments: Engine.allCases)
    func realtimeFilterDepth(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        defer { Task { await socket.close() } }
        let list = (0..<1_001).map(String.init).joined(separator: ",")
        for (ref, filter) in [("1", "or=(\(nested(3_000)))"), ("2", "name=in.(\(list))")] {
            let binding: [String: any Sendable] = ["event": "*", "schema": "public", "table": "locations", "filter": filter]
            try socket.send(
                topic: "realtime:deep\(ref)", event: "phx_join",
                payload: ["config": ["postgres_changes": [binding]] as [String: any Sendable]], ref: ref, joinRef: ref)
            let reply = try await socket.nextObject(where: { $0["event"] as? String == "phx_reply" && $0["ref"] as? String == ref })
            let payload = try #require(reply["payload"] as? [String: any Sendable])
            #expect(payload["status"] as? String == "error", "\(payload)")
        }
        try socket.send(topic: "phoenix", event: "heartbeat", ref: "9")
        let heartbeat = try await socket.nextObject(where: { $0["ref"] as? String == "9" })
        #expect((heartbeat["payload"] as? [String: any Sendable])?["status"] as? String == "ok")
    }
}
