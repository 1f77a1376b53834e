import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Valid but unusual requests, answered as PostgREST 13 answers them (its `Error.hs`):
/// an `Accept` nothing satisfies, 401s with `WWW-Authenticate`, `Content-Range` on a 416.
@Suite("/rest/v1 answers to odd requests")
struct PostgRESTOddRequestTests {
    @Test("Accept: the first acceptable type wins; none acceptable is 406 PGRST107 naming them", arguments: Engine.allCases)
    func accept(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550007101")
        let made = try await server.json(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            ["name": "one", "slug": "one", "status": "published", "created_by": alice.user.id.description])
        #expect(made.status == 201)
        let unknown = try await server.request("GET", "/rest/v1/locations", headers: ["Accept": "unknown/unknown"])
        #expect(unknown.status == 406, "\(unknown.status) \(unknown.text)")
        #expect(unknown.json?["code"] as? String == "PGRST107")
        #expect(unknown.json?["message"] as? String == "None of these media types are available: unknown/unknown")
        let two = try await server.request("GET", "/rest/v1/locations", headers: ["Accept": "text/csv, image/png;q=0.5"])
        #expect(two.json?["message"] as? String == "None of these media types are available: text/csv, image/png")
        let refusedJSON = try await server.request("GET", "/rest/v1/locations", headers: ["Accept": "application/json;q=0"])
        #expect(refusedJSON.status == 406)
        let browser = try await server.request("GET", "/rest/v1/locations?select=name", headers: ["Accept": "text/html, */*"])
        #expect(browser.status == 200)
        #expect(browser.jsonArray?.count == 1)
        let object = try await server.request(
            "GET", "/rest/v1/locations?select=name",
            headers: ["Accept": "application/vnd.pgrst.object+json"])
        #expect(object.status == 200)
        #expect(object.json?["name"] as? String == "one")
        let write = try await server.json(
            "POST", "/rest/v1/locations", bearer: alice.accessToken, headers: ["Accept": "text/xml"],
            ["name": "two", "slug": "two", "status": "published", "created_by": alice.user.id.description])
        #expect(write.status == 406, "a write is negotiated before it runs")
        #expect(try await test.count("locations") == 1)
    }

    @Test("a 401 carries WWW-Authenticate: invalid_token for a bad JWT, Bearer for a missing grant", arguments: Engine.allCases)
    func wwwAuthenticate(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let bad = try await server.request("GET", "/rest/v1/locations", bearer: "not.a.jwt")
        #expect(bad.status == 401)
        #expect(
            bad.header("www-authenticate")?.hasPrefix("Bearer error=\"invalid_token\", error_description=") == true,
            "\(bad.headers)")
        let anonymousInsert = try await server.json("POST", "/rest/v1/locations", ["name": "x", "slug": "x"])
        #expect(anonymousInsert.status == 401, "\(anonymousInsert.status) \(anonymousInsert.text)")
        #expect(anonymousInsert.header("www-authenticate") == "Bearer")
        #expect(try await test.count("locations") == 0)
    }

    @Test("a 416 for an offset past the rows has Content-Range */total; too many rows in one POST is 413", arguments: Engine.allCases)
    func rangesAndBulk(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend) { $0.queryLimits.maxWriteRows = 3 }
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550007102")
        let rows = { (count: Int, prefix: String) in
            (0..<count).map { ["name": "\(prefix)\($0)", "slug": "\(prefix)-\($0)", "status": "published", "created_by": alice.user.id.description] }
        }
        let three = try await server.request(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            body: try JSONSerialization.data(withJSONObject: rows(3, "a")))
        #expect(three.status == 201)
        let four = try await server.request(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            body: try JSONSerialization.data(withJSONObject: rows(4, "b")))
        #expect(four.status == 413, "\(four.status) \(four.text)")
        #expect(four.json?["code"] as? String == "PGRST413")
        #expect(try await test.count("locations") == 3)
        let past = try await server.request("GET", "/rest/v1/locations?offset=10", headers: ["Prefer": "count=exact"])
        #expect(past.status == 416)
        #expect(past.header("content-range") == "*/3")
        #expect(past.json?["details"] as? String == "An offset of 10 was requested, but there are only 3 rows.")
    }
}

@Suite("/rest/v1/ OpenAPI description")
struct RESTOpenAPITests {
    @Test("GET /rest/v1/ describes the tables and verbs the caller's role may use, as Swagger 2.0", arguments: Engine.allCases)
    func description(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let anonymous = try await server.request("GET", "/rest/v1/")
        #expect(anonymous.status == 200, "\(anonymous.status) \(anonymous.text)")
        #expect(anonymous.header("content-type")?.hasPrefix("application/openapi+json") == true)
        #expect(anonymous.json?["swagger"] as? String == "2.0")
        #expect(anonymous.json?["basePath"] as? String == "/rest/v1")
        let paths = try #require(anonymous.json?["paths"] as? [String: any Sendable])
        let locations = try #require(paths["/locations"] as? [String: any Sendable])
        #expect(locations["get"] != nil, "anon reads content")
        #expect(locations["post"] == nil, "anon may not insert content, so the verb is not described")
        let definitions = try #require(anonymous.json?["definitions"] as? [String: any Sendable])
        let location = try #require(definitions["locations"] as? [String: any Sendable])
        #expect((location["properties"] as? [String: any Sendable])?["name"] != nil)
        let service = try await server.request("GET", "/rest/v1/", bearer: server.serviceKey)
        let servicePaths = try #require(service.json?["paths"] as? [String: any Sendable])
        #expect(servicePaths.count >= paths.count)
        #expect((servicePaths["/locations"] as? [String: any Sendable])?["post"] != nil)
        #expect(try await server.request("GET", "/rest/v1/", bearer: "garbage").status == 401)
    }
}
