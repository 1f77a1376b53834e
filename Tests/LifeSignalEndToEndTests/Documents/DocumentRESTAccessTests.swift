import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The `documents` table behind the server's other doors: `/rest/v1` shows each person their
/// own rows and takes no writes (they go through the functions, which check the rules), and
/// the functions answer bad input with `invalid_argument` over HTTP.
@Suite("Documents over /rest/v1 and /functions/v1")
struct DocumentRESTAccessTests {
    @Test("PostgREST reads only my documents, writes none; the functions refuse bad input with 400", arguments: Engine.allCases)
    func restAndFunctions(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer {
            Task {
                await server.stop()
                try? await test.backend.close()
            }
        }
        let alice = try await test.signIn("+15550003001")
        let bob = try await test.signIn("+15550003002")
        let alicePath = try DocumentPath("users/\(alice.user.id)/notes/a")
        try await test.backend.documents.set(caller: .user(alice.user.id), path: alicePath, data: ["n": 1])
        try await test.backend.documents.set(caller: .user(bob.user.id), path: try DocumentPath("users/\(bob.user.id)/notes/b"), data: ["n": 2])

        let mine = try await server.request("GET", "/rest/v1/documents?select=path,data", bearer: alice.accessToken)
        #expect(mine.status == 200)
        #expect(mine.jsonArray?.compactMap { $0["path"] as? String } == [alicePath.rawValue])
        let anonymous = try await server.request("GET", "/rest/v1/documents?select=path")
        #expect(anonymous.status >= 400 || anonymous.jsonArray?.isEmpty == true)

        let insert = try await server.json(
            "POST", "/rest/v1/documents", bearer: alice.accessToken,
            [
                "path": "users/\(alice.user.id)/notes/c", "parent": "users/\(alice.user.id)/notes", "owner_id": alice.user.id.description,
                "data": ["n": ["integer": "3"]], "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z",
            ])
        #expect(insert.status >= 400)
        let patch = try await server.json(
            "PATCH", "/rest/v1/documents?path=eq.\(alicePath.rawValue)", bearer: alice.accessToken, ["data": ["n": ["integer": "9"]]])
        #expect(patch.status >= 400 || patch.jsonArray?.isEmpty == true)
        #expect(try await test.count("documents") == 2)
        #expect(try await test.backend.documents.get(caller: .service, path: alicePath).data == ["n": 1])

        let bad = try await server.json(
            "POST", "/functions/v1/set-document", bearer: alice.accessToken, ["path": "users/\(alice.user.id)", "data": ["n": ["integer": "x"]]])
        #expect(bad.status == 400 && bad.json?["code"] as? String == "invalid_argument")
        let foreign = try await server.json("POST", "/functions/v1/get-document", bearer: bob.accessToken, ["path": alicePath.rawValue])
        #expect(foreign.status == 403 && foreign.json?["code"] as? String == "forbidden")
        let signedOut = try await server.json("POST", "/functions/v1/get-document", ["path": alicePath.rawValue])
        #expect(signedOut.status == 401 && signedOut.json?["code"] as? String == "unauthenticated")
        #expect(try await test.count("documents") == 2)
    }
}
