import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `PUT /rest/v1/<table>?<pk>=eq.<value>`: PostgREST's single-row upsert (by primary key).
@Suite("/rest/v1 PUT")
struct RESTPutTests {
    @Test("PUT inserts (201) then updates (200) one row named by its key; minimal is 204", arguments: Engine.allCases)
    func upsert(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let id = UUID().uuidString.lowercased()
        let me = alice.user.id.description
        let representation = ["Prefer": "return=representation", "Accept": "application/vnd.pgrst.object+json"]

        let created = try await server.json(
            "PUT", "/rest/v1/locations?id=eq.\(id)", bearer: alice.accessToken, headers: representation,
            ["id": id, "name": "Quarry", "slug": "quarry-\(id)", "status": "published", "created_by": me])
        #expect(created.status == 201)
        #expect(created.json?["name"] as? String == "Quarry")
        let updated = try await server.json(
            "PUT", "/rest/v1/locations?id=eq.\(id)", bearer: alice.accessToken, headers: representation,
            ["id": id, "name": "Old Quarry", "slug": "quarry-\(id)", "status": "published", "created_by": me])
        #expect(updated.status == 200)
        #expect(updated.json?["name"] as? String == "Old Quarry")
        let minimal = try await server.json(
            "PUT", "/rest/v1/locations?id=eq.\(id)", bearer: alice.accessToken,
            ["id": id, "name": "Quarry Pond", "slug": "quarry-\(id)", "status": "published", "created_by": me])
        #expect(minimal.status == 204)
        #expect(minimal.body.isEmpty)
        let read = try await server.request("GET", "/rest/v1/locations?select=name&id=eq.\(id)")
        #expect(read.jsonArray?.first?["name"] as? String == "Quarry Pond")
        #expect(try await test.count("locations") == 1)
    }

    @Test("PUT that does not name exactly one row by its key is refused and writes nothing", arguments: Engine.allCases)
    func refusals(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let id = UUID().uuidString.lowercased()
        let body: [String: any Sendable] = ["id": id, "name": "X", "slug": "x", "created_by": alice.user.id.description]
        let cases: [(path: String, body: [String: any Sendable], status: Int, code: String)] = [
            ("/rest/v1/locations?name=eq.X", body, 405, "PGRST105"),
            ("/rest/v1/locations?id=gt.\(id)", body, 405, "PGRST105"),
            ("/rest/v1/locations?id=eq.\(id)&name=eq.X", body, 405, "PGRST105"),
            ("/rest/v1/locations?id=eq.\(UUID().uuidString.lowercased())", body, 400, "PGRST115"),
            ("/rest/v1/locations?id=eq.\(id)&limit=1", body, 400, "PGRST114"),
        ]
        for refused in cases {
            let reply = try await server.json("PUT", refused.path, bearer: alice.accessToken, refused.body)
            #expect(reply.status == refused.status, "\(refused.path)")
            #expect(reply.json?["code"] as? String == refused.code, "\(refused.path)")
        }
        let anonymous = try await server.json("PUT", "/rest/v1/locations?id=eq.\(id)", body)
        #expect(anonymous.status == 401)
        #expect(try await test.count("locations") == 0)
    }

    @Test("PUT obeys the table's grants and policies as an upsert does: no forged owner, no writes by a non-editor", arguments: Engine.allCases)
    func policies(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let carol = try await test.signInEditor("+15550003333")
        let id = UUID().uuidString.lowercased()
        let path = "/rest/v1/locations?id=eq.\(id)"
        let created = try await server.json(
            "PUT", path, bearer: alice.accessToken,
            ["id": id, "name": "Quarry", "slug": "quarry-\(id)", "created_by": alice.user.id.description])
        #expect(created.status == 204)

        let takeover = try await server.json(
            "PUT", path, bearer: bob.accessToken,
            ["id": id, "name": "Mine now", "slug": "quarry-\(id)", "created_by": bob.user.id.description])
        #expect(takeover.status == 403, "\(takeover.text)")
        #expect(takeover.json?["code"] as? String == "42501")
        // The same hole through POST's upsert, which PUT is built on.
        let posted = try await server.json(
            "POST", "/rest/v1/locations", bearer: bob.accessToken, headers: ["Prefer": "resolution=merge-duplicates"],
            ["id": id, "name": "Mine now", "slug": "quarry-\(id)", "created_by": bob.user.id.description])
        #expect(posted.status == 403, "\(posted.text)")
        let other = UUID().uuidString.lowercased()
        // An editor writes in their own name only.
        let forged = try await server.json(
            "PUT", "/rest/v1/locations?id=eq.\(other)", bearer: carol.accessToken,
            ["id": other, "name": "Forged", "slug": "forged-\(other)", "created_by": alice.user.id.description])
        #expect(forged.status == 403, "\(forged.text)")
        #expect(forged.json?["code"] as? String == "42501")

        let read = try await server.request("GET", "/rest/v1/locations?select=name,created_by&id=eq.\(id)", bearer: alice.accessToken)
        #expect(read.jsonArray?.first?["name"] as? String == "Quarry")
        #expect(read.jsonArray?.first?["created_by"] as? String == alice.user.id.description)
        #expect(try await test.count("locations") == 1)
    }
}
