import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("/rest/v1 writes on the content tables")
struct RESTWriteTests {
    static let representation = ["Prefer": "return=representation", "Accept": "application/vnd.pgrst.object+json"]

    @Test("create, update and soft-delete return the row; only an editor may change it", arguments: Engine.allCases)
    func lifecycle(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let me = alice.user.id.description

        let created = try await server.json(
            "POST", "/rest/v1/locations?select=*", bearer: alice.accessToken, headers: Self.representation,
            ["name": "Fiddletown Winery", "slug": "fiddletown-winery", "sort_order": 2, "created_by": me])
        #expect(created.status == 201)
        let row = try #require(created.json)
        #expect(row["status"] as? String == "draft")
        #expect(row["sort_order"] as? Int == 2)
        let id = try #require(row["id"] as? String)
        #expect(UUID(uuidString: id) != nil)
        #expect((row["created_at"] as? String)?.hasSuffix("+00:00") == true)

        let updated = try await server.json(
            "PATCH", "/rest/v1/locations?id=eq.\(id)", bearer: alice.accessToken, headers: Self.representation,
            ["name": "Fiddletown Cellars", "status": "published"])
        #expect(updated.status == 200)
        #expect(updated.json?["name"] as? String == "Fiddletown Cellars")

        // Bob, who is no editor, reads the published row but may not change or delete it.
        let bobsUpdate = try await server.json(
            "PATCH", "/rest/v1/locations?id=eq.\(id)", bearer: bob.accessToken, headers: ["Prefer": "return=representation"], ["name": "Mine now"])
        #expect(bobsUpdate.status == 403 && bobsUpdate.json?["code"] as? String == "42501", "\(bobsUpdate.text)")
        let bobsDelete = try await server.request("DELETE", "/rest/v1/locations?id=eq.\(id)", bearer: bob.accessToken)
        #expect(bobsDelete.status == 403, "\(bobsDelete.text)")
        let bobReads = try await server.request("GET", "/rest/v1/locations?select=name", bearer: bob.accessToken)
        #expect(bobReads.jsonArray?.first?["name"] as? String == "Fiddletown Cellars")
        let forged = try await server.json("POST", "/rest/v1/locations", bearer: bob.accessToken, ["name": "X", "slug": "x", "created_by": me])
        #expect(forged.status == 403)
        #expect(forged.json?["code"] as? String == "42501")
        let anonymous = try await server.json("POST", "/rest/v1/locations", ["name": "Y", "slug": "y"])
        #expect(anonymous.status == 401)

        let deletedAt = Timestamp.format(test.clock.now)
        let soft = try await server.json("PATCH", "/rest/v1/locations?id=eq.\(id)", bearer: alice.accessToken, ["deleted_at": deletedAt])
        #expect(soft.status == 204)
        let visible = try await server.request("GET", "/rest/v1/locations?select=id&deleted_at=is.null")
        #expect(visible.jsonArray?.isEmpty == true)
        // The soft-deleted row is an editor's to read.
        let all = try await server.request("GET", "/rest/v1/locations?select=name,deleted_at", bearer: alice.accessToken)
        #expect(all.jsonArray?.first?["name"] as? String == "Fiddletown Cellars")
        #expect(all.jsonArray?.first?["deleted_at"] as? String != nil)
    }

    @Test("bad writes are refused precisely and change nothing", arguments: Engine.allCases)
    func badWrites(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let me = alice.user.id.description
        let token = alice.accessToken
        let cases: [(String, String, Data, Int, String)] = [
            ("POST", "/rest/v1/locations", Data("{oops".utf8), 400, "PGRST102"),
            ("POST", "/rest/v1/locations", Data("".utf8), 400, "PGRST102"),
            ("POST", "/rest/v1/locations", Data(#"[{"name":"a","slug":"a"},{"name":"b"}]"#.utf8), 400, "PGRST102"),
            ("POST", "/rest/v1/locations", Data(#"{"name":"a","slug":"a","colour":"red","created_by":"\#(me)"}"#.utf8), 400, "PGRST204"),
            ("POST", "/rest/v1/locations", Data(#"{"name":"a","slug":"a","sort_order":"first","created_by":"\#(me)"}"#.utf8), 400, "22P02"),
            ("POST", "/rest/v1/events", Data(#"{"name":"a","slug":"a","start_date":"June","created_by":"\#(me)"}"#.utf8), 400, "22007"),
            ("POST", "/rest/v1/locations", Data(#"{"slug":"a","created_by":"\#(me)"}"#.utf8), 400, "23502"),
            ("POST", "/rest/v1/locations", Data(#"{"name":"a","slug":"a","status":"live","created_by":"\#(me)"}"#.utf8), 400, "23514"),
            // NUL in text: PostgreSQL refuses it, and SQLite would keep it but hand back only
            // the text before it, so both refuse it as PostgreSQL does.
            ("POST", "/rest/v1/locations", Data(#"{"name":"a\u0000b","slug":"a","created_by":"\#(me)"}"#.utf8), 400, "22021"),
            ("PATCH", "/rest/v1/locations", Data(#"{"name":"b"}"#.utf8), 400, "21000"),
            ("DELETE", "/rest/v1/locations", Data(), 400, "21000"),
            ("POST", "/rest/v1/nowhere", Data("{}".utf8), 404, "PGRST205"),
        ]
        for (method, path, body, status, code) in cases {
            let reply = try await server.request(method, path, bearer: token, body: method == "DELETE" ? nil : body)
            #expect(reply.status == status, "\(method) \(path) \(String(decoding: body, as: UTF8.self))")
            #expect(reply.json?["code"] as? String == code, "\(method) \(path) \(String(decoding: body, as: UTF8.self)) → \(reply.text)")
        }
        #expect(try await test.count("locations") == 0)
        #expect(try await test.count("events") == 0)

        _ = try await server.json("POST", "/rest/v1/locations", bearer: token, ["name": "a", "slug": "a", "created_by": me])
        let duplicate = try await server.json("POST", "/rest/v1/locations", bearer: token, ["name": "b", "slug": "a", "created_by": me])
        #expect(duplicate.status == 409)
        #expect(duplicate.json?["code"] as? String == "23505")
        // A singular request that matches no row is refused and rolled back.
        let none = try await server.json("PATCH", "/rest/v1/locations?slug=eq.zzz", bearer: token, headers: Self.representation, ["name": "c"])
        #expect(none.status == 406)
        let many = try await server.json(
            "POST", "/rest/v1/locations", bearer: token, headers: Self.representation, ["name": "d", "slug": "d", "created_by": me])
        #expect(many.status == 201)
        let bulk = try await server.request(
            "POST", "/rest/v1/locations?columns=name,slug,created_by", bearer: token,
            headers: Self.representation,
            body: Data(#"[{"name":"e","slug":"e","created_by":"\#(me)"},{"name":"f","slug":"f","created_by":"\#(me)"}]"#.utf8))
        #expect(bulk.status == 406)
        #expect(try await test.count("locations") == 2)
    }

    @Test("bulk insert and upsert by slug", arguments: Engine.allCases)
    func upsert(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let me = alice.user.id.description
        let rows = #"[{"name":"A","slug":"a","created_by":"\#(me)"},{"name":"B","slug":"b","created_by":"\#(me)"}]"#
        let bulk = try await server.request(
            "POST", "/rest/v1/routes?columns=%22name%22,%22slug%22,%22created_by%22", bearer: alice.accessToken,
            headers: ["Prefer": "return=representation"], body: Data(rows.utf8))
        #expect(bulk.status == 201)
        #expect(bulk.jsonArray?.map { $0["difficulty"] as? String } == ["easy", "easy"])
        let again = #"[{"name":"A2","slug":"a","created_by":"\#(me)"}]"#
        let merged = try await server.request(
            "POST", "/rest/v1/routes?on_conflict=slug", bearer: alice.accessToken,
            headers: ["Prefer": "resolution=merge-duplicates,return=representation"], body: Data(again.utf8))
        #expect(merged.status == 200)
        #expect(merged.jsonArray?.first?["name"] as? String == "A2")
        #expect(merged.header("Preference-Applied") == "resolution=merge-duplicates, return=representation")
        #expect(try await test.count("routes") == 2)
    }
}
