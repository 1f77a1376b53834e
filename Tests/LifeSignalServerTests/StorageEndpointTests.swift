import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

@Suite("/storage/v1 avatars")
struct StorageEndpointTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 7, count: 1000)

    @Test("the owner uploads under their folder; anyone downloads; the owner deletes", arguments: Engine.allCases)
    func lifecycle(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let path = "/storage/v1/object/avatars/\(alice.user.id)/avatar.png"
        let image = ["Content-Type": "image/png"]

        let uploaded = try await server.request("POST", path, bearer: alice.accessToken, headers: image, body: Self.png)
        #expect(uploaded.status == 200)
        #expect(uploaded.json?["Key"] as? String == "avatars/\(alice.user.id)/avatar.png")
        let again = try await server.request("POST", path, bearer: alice.accessToken, headers: image, body: Self.png)
        #expect(again.status == 409)
        let replaced = try await server.request("PUT", path, bearer: alice.accessToken, headers: image, body: Self.png.prefix(8))
        #expect(replaced.status == 200)

        let anonymous = try await server.request("GET", "/storage/v1/object/public/avatars/\(alice.user.id)/avatar.png")
        #expect(anonymous.status == 200)
        #expect(anonymous.body == Self.png.prefix(8))
        #expect(anonymous.header("Content-Type") == "image/png")

        let bob = try await test.signIn("+15550002222")
        let bobWrites = try await server.request("PUT", path, bearer: bob.accessToken, headers: image, body: Self.png)
        #expect(bobWrites.status == 403)
        let bobDeletes = try await server.request("DELETE", path, bearer: bob.accessToken)
        #expect(bobDeletes.status == 403)

        let deleted = try await server.request("DELETE", path, bearer: alice.accessToken)
        #expect(deleted.status == 200)
        #expect(try await server.request("GET", "/storage/v1/object/public/avatars/\(alice.user.id)/avatar.png").status == 404)
    }

    @Test("too large, not an image, bad paths, no token, unknown bucket", arguments: Engine.allCases)
    func refusals(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let base = "/storage/v1/object/avatars/\(alice.user.id)"
        let huge = try await server.request("POST", "\(base)/big.png", bearer: alice.accessToken, headers: ["Content-Type": "image/png"],
                                            body: Data(count: 5 * 1024 * 1024 + 1))
        #expect(huge.status == 413)
        let text = try await server.request("POST", "\(base)/notes.txt", bearer: alice.accessToken, headers: ["Content-Type": "text/plain"], body: Data("hi".utf8))
        #expect(text.status == 415)
        let traversal = try await server.request("POST", "\(base)/..%2F..%2Fescape.png", bearer: alice.accessToken, headers: ["Content-Type": "image/png"], body: Self.png)
        #expect(traversal.status == 400)
        let noToken = try await server.request("POST", "\(base)/a.png", headers: ["Content-Type": "image/png"], body: Self.png)
        #expect(noToken.status == 401)
        let bucket = try await server.request("POST", "/storage/v1/object/secrets/\(alice.user.id)/a.png", bearer: alice.accessToken,
                                              headers: ["Content-Type": "image/png"], body: Self.png)
        #expect(bucket.status == 404)
        #expect(try await test.count("storage_objects") == 0)
        let exposed = try await server.request("GET", "/rest/v1/storage_objects", bearer: server.serviceKey)
        #expect(exposed.status == 404)
    }
}
