import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("/storage/v1 avatars")
struct StorageEndpointTests {
    /// Real pictures: the server stores only bytes that are the image type declared.
    static let png = TestImages.png(width: 16, height: 16)
    static let replacement = TestImages.png(width: 2, height: 2, shade: 9)

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
        let replaced = try await server.request("PUT", path, bearer: alice.accessToken, headers: image, body: Self.replacement)
        #expect(replaced.status == 200)

        let anonymous = try await server.request("GET", "/storage/v1/object/public/avatars/\(alice.user.id)/avatar.png")
        #expect(anonymous.status == 200)
        #expect(anonymous.body == Self.replacement)
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
        let huge = try await server.request(
            "POST", "\(base)/big.png", bearer: alice.accessToken, headers: ["Content-Type": "image/png"],
            body: Data(count: 5 * 1024 * 1024 + 1))
        #expect(huge.status == 413)
        let text = try await server.request(
            "POST", "\(base)/notes.txt", bearer: alice.accessToken, headers: ["Content-Type": "text/plain"], body: Data("hi".utf8))
        #expect(text.status == 415)
        let traversal = try await server.request(
            "POST", "\(base)/..%2F..%2Fescape.png", bearer: alice.accessToken, headers: ["Content-Type": "image/png"], body: Self.png)
        #expect(traversal.status == 400)
        let noToken = try await server.request("POST", "\(base)/a.png", headers: ["Content-Type": "image/png"], body: Self.png)
        #expect(noToken.status == 401)
        let bucket = try await server.request(
            "POST", "/storage/v1/object/secrets/\(alice.user.id)/a.png", bearer: alice.accessToken,
            headers: ["Content-Type": "image/png"], body: Self.png)
        #expect(bucket.status == 404)
        #expect(try await test.count("storage_objects") == 0)
        let exposed = try await server.request("GET", "/rest/v1/storage_objects", bearer: server.serviceKey)
        #expect(exposed.status == 404)
    }

    @Test(
        "an upload is refused from its head: no token, another's folder, a type or declared size not allowed; its body is never awaited",
        arguments: Engine.allCases)
    func refusedBeforeTheBody(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        // The body timeout is far beyond the wait below: an answer can only come from the head.
        let server = try await TestServer.start(test.backend) { $0.connectionLimits.bodyTimeout = .seconds(120) }
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let cases: [(bearer: String?, path: String, type: String, length: Int, status: Int)] = [
            (nil, "\(alice.user.id)/a.png", "image/png", 4_000_000, 401),
            (server.anonKey, "\(alice.user.id)/a.png", "image/png", 4_000_000, 401),
            (bob.accessToken, "\(alice.user.id)/a.png", "image/png", 4_000_000, 403),
            (alice.accessToken, "\(alice.user.id)/a.png", "image/png", 6 * 1024 * 1024, 413),
            (alice.accessToken, "\(alice.user.id)/a.txt", "text/plain", 4_000_000, 415),
            (alice.accessToken, "\(alice.user.id)/a.svg", "image/svg+xml", 4_000_000, 415),
            (alice.accessToken, "\(alice.user.id)/a.gif", "image/gif", 4_000_000, 415),
        ]
        for item in cases {
            let socket = try ConnectionTestSocket(port: server.port)
            let authorization = item.bearer.map { "Authorization: Bearer \($0)\r\n" } ?? ""
            socket.send(
                "POST /storage/v1/object/avatars/\(item.path) HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: \(server.anonKey)\r\n\(authorization)"
                    + "Content-Type: \(item.type)\r\nContent-Length: \(item.length)\r\n\r\n" + String(repeating: "x", count: 1000))
            let answer = await socket.waitFor("\r\n\r\n", within: .seconds(30))
            #expect(answer.hasPrefix("HTTP/1.1 \(item.status) "), "expected \(item.status) for \(item.path), got \(answer.prefix(40))")
            #expect(await socket.waitUntilClosed(within: .seconds(30)), "the unread body is not drained: the connection ends after the refusal")
        }
        let count = try await test.backend.database.query("SELECT count(*) AS n FROM storage_objects").first?.int("n")
        #expect(count == 0)

        let bulk = try ConnectionTestSocket(port: server.port)
        bulk.send(
            "DELETE /storage/v1/object/avatars HTTP/1.1\r\nHost: 127.0.0.1\r\napikey: \(server.anonKey)\r\n"
                + "Content-Type: application/json\r\nContent-Length: 500000\r\n\r\n{\"prefixes\":[")
        #expect(await bulk.waitFor("\r\n\r\n", within: .seconds(30)).hasPrefix("HTTP/1.1 401 "))
    }
}
