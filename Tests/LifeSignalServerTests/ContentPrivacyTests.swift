import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Content as docs/security.md's model has it ("Content"): anon and every signed-in person who
/// is not an editor read only published, non-deleted rows and never `created_by`, and write
/// nothing; an editor (`app_metadata.role = "editor"`, set with the service role) reads every
/// row and column and writes. Over HTTP and Realtime, on both engines.
@Suite("content privacy")
struct ContentPrivacyTests {
    struct Setup {
        let test: TestBackend
        let server: TestServer
        let editor: IssuedSession
        let reader: IssuedSession  // signed in, not an editor
        /// Slug → id of the rows of each kind: published, draft, archived, published but deleted.
        let ids: [String: String]
    }

    static let kinds: [(slug: String, status: String, deleted: Bool)] = [
        ("live", "published", false), ("draft", "draft", false), ("archived", "archived", false), ("gone", "published", true),
    ]

    /// An editor, a reader, and one row of each kind in `table`, written with the service key.
    static func setUp(_ engine: Engine, table: String = "locations") async throws -> Setup {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        let editor = try await test.signInEditor("+15550007001")
        let reader = try await test.signIn("+15550007002")
        var ids: [String: String] = [:]
        for kind in kinds {
            var row: [String: any Sendable] = [
                "name": kind.slug, "slug": kind.slug, "status": kind.status,
                "created_by": editor.user.id.description,
            ]
            if kind.deleted { row["deleted_at"] = "2026-01-01T00:00:00Z" }
            let reply = try await server.request(
                "POST", "/rest/v1/\(table)", apiKey: .some(server.serviceKey), bearer: server.serviceKey,
                headers: ["Prefer": "return=representation"], body: try JSONSerialization.data(withJSONObject: row))
            ids[kind.slug] = try #require(reply.jsonArray?.first?["id"] as? String, "\(reply.status) \(reply.text)")
        }
        return Setup(test: test, server: server, editor: editor, reader: reader, ids: ids)
    }

    static func rows(_ reply: TestServer.Reply) throws -> [[String: any Sendable]] {
        try #require(reply.jsonArray, "\(reply.status) \(reply.text)")
    }

    @Test(
        "anon and a non-editor read published live rows without created_by; an editor reads every row and column",
        arguments: Engine.allCases, ["locations", "events", "routes"])
    func reads(engine: Engine, table: String) async throws {
        let setup = try await Self.setUp(engine, table: table)
        defer { Task { await setup.server.stop() } }
        let server = setup.server
        for bearer in [nil, setup.reader.accessToken] {
            for path in ["/rest/v1/\(table)", "/rest/v1/\(table)?select=*", "/rest/v1/\(table)?select=*&order=name"] {
                let rows = try Self.rows(try await server.request("GET", path, bearer: bearer))
                #expect(rows.map { $0["slug"] as? String } == ["live"], "\(path): \(rows)")
                #expect(rows.allSatisfy { $0["created_by"] == nil && $0["name"] != nil && $0["deleted_at"] != nil }, "\(rows)")
            }
            // Asked for by id or status, a hidden row is simply not there.
            let draft = try Self.rows(try await server.request("GET", "/rest/v1/\(table)?id=eq.\(setup.ids["draft"] ?? "")", bearer: bearer))
            #expect(draft.isEmpty)
            let counted = try await server.request("GET", "/rest/v1/\(table)?select=id", bearer: bearer, headers: ["Prefer": "count=exact"])
            #expect(counted.header("content-range") == "0-0/1", "\(counted.headers)")
        }
        let all = try Self.rows(
            try await server.request("GET", "/rest/v1/\(table)?select=slug,created_by,deleted_at&order=slug", bearer: setup.editor.accessToken))
        #expect(all.map { $0["slug"] as? String } == ["archived", "draft", "gone", "live"], "\(all)")
        #expect(all.allSatisfy { $0["created_by"] as? String == setup.editor.user.id.description.lowercased() }, "\(all)")
        let star = try Self.rows(try await server.request("GET", "/rest/v1/\(table)", bearer: setup.editor.accessToken))
        #expect(star.count == 4 && star.allSatisfy { $0["created_by"] != nil }, "\(star)")
    }

    @Test("naming created_by (select, alias, filter, order, or/and) is refused 42501 for all but editors", arguments: Engine.allCases)
    func hiddenColumn(engine: Engine) async throws {
        let setup = try await Self.setUp(engine)
        defer { Task { await setup.server.stop() } }
        let id = setup.editor.user.id.description
        let paths = [
            "select=created_by", "select=id,who:created_by", "created_by=eq.\(id)", "created_by=is.null",
            "order=created_by", "or=(created_by.eq.\(id),name.eq.x)", "select=id&created_by=not.is.null",
        ]
        for (bearer, status) in [(nil, 401), (setup.reader.accessToken, 403)] as [(String?, Int)] {
            for query in paths {
                let reply = try await setup.server.request("GET", "/rest/v1/locations?\(query)", bearer: bearer)
                #expect(reply.status == status && reply.json?["code"] as? String == "42501", "\(query): \(reply.status) \(reply.text)")
                #expect((reply.json?["message"] as? String)?.contains("permission denied for column \"created_by\"") == true, "\(reply.text)")
            }
        }
        for query in paths {
            let reply = try await setup.server.request("GET", "/rest/v1/locations?\(query)", bearer: setup.editor.accessToken)
            #expect(reply.status == 200, "\(query): \(reply.status) \(reply.text)")
        }
        // The OpenAPI description shows anon the columns it may read.
        let document = try await setup.server.request("GET", "/rest/v1/")
        let properties =
            ((document.json?["definitions"] as? [String: any Sendable])?["locations"] as? [String: any Sendable])?["properties"] as? [String: any Sendable]
        #expect(properties?["name"] != nil && properties?["created_by"] == nil, "\(properties ?? [:])")
    }

    @Test("writes by anon and non-editors are refused 42501 and change nothing; an editor writes their own", arguments: Engine.allCases)
    func writes(engine: Engine) async throws {
        let setup = try await Self.setUp(engine)
        defer { Task { await setup.server.stop() } }
        let (server, test) = (setup.server, setup.test)
        let live = setup.ids["live"] ?? ""
        func snapshot() async throws -> String {
            let rows = try await test.backend.database.query("SELECT id, name, status, deleted_at FROM locations ORDER BY id")
            return rows.map {
                "\($0.optionalString("id") ?? "")|\($0.optionalString("name") ?? "")|\($0.optionalString("status") ?? "")|\($0.optionalString("deleted_at") ?? "")"
            }
            .joined(separator: ";")
        }
        let before = try await snapshot()
        for (bearer, status, who) in [(nil, 401, "anon"), (setup.reader.accessToken, 403, "reader")] as [(String?, Int, String)] {
            let own = setup.reader.user.id.description
            let attempts: [(String, String, [String: any Sendable]?)] = [
                ("POST", "/rest/v1/locations", ["name": "New", "slug": "new-\(who)", "status": "published", "created_by": own]),
                ("POST", "/rest/v1/locations?on_conflict=id", ["id": live, "name": "Taken", "slug": "live"]),
                ("PATCH", "/rest/v1/locations?id=eq.\(live)", ["name": "Changed"]),
                ("PUT", "/rest/v1/locations?id=eq.\(live)", ["id": live, "name": "Put", "slug": "live"]),
                ("DELETE", "/rest/v1/locations?id=eq.\(live)", nil),
            ]
            for (method, path, body) in attempts {
                let reply = try await server.request(
                    method, path, bearer: bearer, headers: method == "POST" && path.contains("on_conflict") ? ["Prefer": "resolution=merge-duplicates"] : [:],
                    body: try body.map { try JSONSerialization.data(withJSONObject: $0) })
                #expect(reply.status == status && reply.json?["code"] as? String == "42501", "\(who) \(method) \(path): \(reply.status) \(reply.text)")
            }
        }
        #expect(try await snapshot() == before, "a refused write changed a row")

        let editor = setup.editor
        let created = try await server.json(
            "POST", "/rest/v1/locations", bearer: editor.accessToken, headers: ["Prefer": "return=representation"],
            ["name": "Fresh", "slug": "fresh", "created_by": editor.user.id.description])
        #expect(created.status == 201 && created.jsonArray?.first?["created_by"] as? String == editor.user.id.description.lowercased(), "\(created.text)")
        let published = try await server.json(
            "PATCH", "/rest/v1/locations?slug=eq.fresh", bearer: editor.accessToken,
            headers: ["Prefer": "return=representation"], ["status": "published"])
        #expect(published.status == 200 && published.jsonArray?.first?["status"] as? String == "published", "\(published.text)")
        let removed = try await server.request("DELETE", "/rest/v1/locations?id=eq.\(setup.ids["draft"] ?? "")", bearer: editor.accessToken)
        #expect(removed.status == 204, "\(removed.text)")
        #expect(try await test.count("locations") == 4)
        // Another editor reads the row but changes only their own.
        let other = try await test.signInEditor("+15550007003")
        let takeover = try await server.json(
            "PATCH", "/rest/v1/locations?id=eq.\(live)", bearer: other.accessToken,
            headers: ["Prefer": "return=representation"], ["name": "Mine now"])
        #expect(takeover.status == 200 && takeover.jsonArray?.isEmpty == true, "\(takeover.text)")
        let seen = try Self.rows(try await server.request("GET", "/rest/v1/locations?select=name&id=eq.\(live)", bearer: other.accessToken))
        #expect(seen.first?["name"] as? String == "live")
        // An editor writes in their own name.
        let forged = try await server.json(
            "POST", "/rest/v1/locations", bearer: editor.accessToken,
            ["name": "Forged", "slug": "forged", "created_by": setup.reader.user.id.description])
        #expect(forged.status == 403 && forged.json?["code"] as? String == "42501", "\(forged.text)")
    }

    @Test("the service role makes an editor through the admin API; the role reaches the next token", arguments: Engine.allCases)
    func adminMakesEditor(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let person = try await test.signIn("+15550007011")
        let other = try await test.signIn("+15550007012")
        let path = "/auth/v1/admin/users/\(person.user.id.description)"
        let body = Data(#"{"app_metadata":{"role":"editor"}}"#.utf8)
        for bearer in [other.accessToken, server.anonKey] {
            let refused = try await server.request("PUT", path, bearer: bearer, body: body)
            #expect(refused.status == 403 && refused.json?["error_code"] as? String == "not_admin", "\(refused.status) \(refused.text)")
        }
        let missing = try await server.request(
            "PUT", "/auth/v1/admin/users/\(UUID().uuidString)", apiKey: .some(server.serviceKey),
            bearer: server.serviceKey, body: body)
        #expect(missing.status == 404, "\(missing.text)")
        let other2 = try await server.request(
            "PUT", path, apiKey: .some(server.serviceKey), bearer: server.serviceKey,
            body: Data(#"{"email":"x@example.com"}"#.utf8))
        #expect(other2.status == 400, "\(other2.text)")

        // The token issued before the change is still a reader's.
        let before = try await server.request("GET", "/rest/v1/locations?select=created_by", bearer: person.accessToken)
        #expect(before.status == 403, "\(before.text)")
        try await server.makeEditor(person.user.id.description)
        let refreshed = try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", ["refresh_token": person.refreshToken])
        let token = try #require(refreshed.json?["access_token"] as? String, "\(refreshed.text)")
        let claims = try await test.backend.auth.tokens.verify(token)
        #expect(claims.appMetadata?.role == "editor" && claims.role == "authenticated")
        let user = try await server.request("GET", "/auth/v1/user", bearer: token)
        #expect((user.json?["app_metadata"] as? [String: any Sendable])?["role"] as? String == "editor", "\(user.text)")
        let after = try await server.request("GET", "/rest/v1/locations?select=created_by", bearer: token)
        #expect(after.status == 200, "\(after.text)")
        // Taking the role away (a null removes the key) works the same way.
        let dropped = try await server.request(
            "PUT", path, apiKey: .some(server.serviceKey), bearer: server.serviceKey,
            body: Data(#"{"app_metadata":{"role":null}}"#.utf8))
        #expect(dropped.status == 200 && (dropped.json?["app_metadata"] as? [String: any Sendable])?["role"] == nil, "\(dropped.text)")
    }

    @Test("Realtime: a draft reaches an editor, not anon; a published insert reaches anon without created_by", arguments: Engine.allCases)
    func realtime(engine: Engine) async throws {
        let setup = try await Self.setUp(engine)
        defer { Task { await setup.server.stop() } }
        let server = setup.server
        var sockets: [RealtimeTestSocket] = []
        for token in [nil, setup.reader.accessToken, setup.editor.accessToken] {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            let joined = try await RealtimeTests.join(socket, table: "locations", event: "INSERT", token: token)
            #expect(joined["status"] as? String == "ok", "\(joined)")
            sockets.append(socket)
        }
        defer { for socket in sockets { Task { await socket.close() } } }
        // A filter on the hidden column is refused at the join, as its GET would be.
        let filtered = try await RealtimeTests.join(
            sockets[1], topic: "realtime:by-author", table: "locations",
            filter: "created_by=eq.\(setup.editor.user.id.description)",
            token: setup.reader.accessToken, ref: "7")
        #expect(filtered["status"] as? String == "error", "\(filtered)")
        #expect(((filtered["response"] as? [String: any Sendable])?["reason"] as? String)?.contains("permission denied for column") == true, "\(filtered)")

        let editor = setup.editor
        for (slug, status) in [("rt-draft", "draft"), ("rt-live", "published")] {
            let reply = try await server.json(
                "POST", "/rest/v1/locations", bearer: editor.accessToken,
                ["name": slug, "slug": slug, "status": status, "created_by": editor.user.id.description])
            #expect(reply.status == 201, "\(reply.text)")
        }
        let editorHears = try await RealtimeTests.nextChange(sockets[2])
        let draft = try #require(editorHears.data["record"] as? [String: any Sendable])
        #expect(draft["slug"] as? String == "rt-draft" && draft["created_by"] as? String == editor.user.id.description.lowercased(), "\(draft)")
        let editorColumns = (editorHears.data["columns"] as? [[String: any Sendable]])?.compactMap { $0["name"] as? String } ?? []
        #expect(editorColumns.contains("created_by"))
        // Changes arrive in commit order: anon's and the reader's first change being the
        // published row proves the draft before it was not sent to them.
        for socket in sockets.prefix(2) {
            let heard = try await RealtimeTests.nextChange(socket)
            let record = try #require(heard.data["record"] as? [String: any Sendable])
            #expect(record["slug"] as? String == "rt-live" && record["created_by"] == nil && record["name"] != nil, "\(record)")
            let columns = (heard.data["columns"] as? [[String: any Sendable]])?.compactMap { $0["name"] as? String } ?? []
            #expect(!columns.isEmpty && !columns.contains("created_by"), "\(columns)")
        }
        let editorSecond = try await RealtimeTests.nextChange(sockets[2])
        #expect((editorSecond.data["record"] as? [String: any Sendable])?["slug"] as? String == "rt-live")
    }

    @Test("Realtime UPDATE: publishing a draft reaches anon without created_by; unpublishing reaches only the editor", arguments: Engine.allCases)
    func realtimeUpdates(engine: Engine) async throws {
        let setup = try await Self.setUp(engine)
        defer { Task { await setup.server.stop() } }
        let server = setup.server
        var sockets: [RealtimeTestSocket] = []
        for token in [nil, setup.editor.accessToken] {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            let joined = try await RealtimeTests.join(socket, table: "locations", event: "UPDATE", token: token)
            #expect(joined["status"] as? String == "ok", "\(joined)")
            sockets.append(socket)
        }
        defer { for socket in sockets { Task { await socket.close() } } }
        let editor = setup.editor.accessToken
        for (slug, status) in [("live", "draft"), ("draft", "published")] {
            let reply = try await server.json("PATCH", "/rest/v1/locations?slug=eq.\(slug)", bearer: editor, ["status": status])
            #expect(reply.status == 204, "\(reply.text)")
        }
        // Anon's first UPDATE is the draft being published: the live row turned draft was not
        // sent to them (its GET no longer returns it).
        let anon = try await RealtimeTests.nextChange(sockets[0])
        let record = try #require(anon.data["record"] as? [String: any Sendable])
        #expect(record["slug"] as? String == "draft" && record["status"] as? String == "published" && record["created_by"] == nil, "\(record)")
        let first = try await RealtimeTests.nextChange(sockets[1])
        let second = try await RealtimeTests.nextChange(sockets[1])
        let slugs = [first, second].compactMap { ($0.data["record"] as? [String: any Sendable])?["slug"] as? String }
        #expect(slugs == ["live", "draft"], "\(slugs)")
        #expect((first.data["record"] as? [String: any Sendable])?["created_by"] as? String == setup.editor.user.id.description.lowercased())
    }
}
