import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// PostgREST's CORS on `/rest/v1` and `/auth/v1` (PostgREST's rule), and the Edge Functions' wildcard
/// CORS on `/functions/v1`, over a real socket.
@Suite("CORS")
struct CORSTests {
    @Test("a preflight is answered without a key, echoing the origin and the asked headers", arguments: Engine.allCases)
    func preflight(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        for path in ["/rest/v1/locations", "/auth/v1/token?grant_type=password"] {
            let reply = try await server.request(
                "OPTIONS", path, apiKey: .some(nil),
                headers: [
                    "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "apikey, content-type, prefer",
                ])
            #expect(reply.status == 200, "\(path)")
            #expect(reply.header("Access-Control-Allow-Origin") == "https://app.example")
            #expect(reply.header("Access-Control-Allow-Methods") == "GET, POST, PATCH, PUT, DELETE, OPTIONS")
            #expect(reply.header("Access-Control-Allow-Headers") == "Authorization, apikey, content-type, prefer")
            #expect(reply.header("Access-Control-Max-Age") == "86400")
        }
    }

    @Test("replies to a cross-origin request, errors included, carry the origin and the exposed headers", arguments: Engine.allCases)
    func crossOriginReplies(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let origin = ["Origin": "https://app.example"]
        let read = try await server.request("GET", "/rest/v1/locations?select=id", headers: origin)
        #expect(read.status == 200)
        #expect(read.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(read.header("Access-Control-Expose-Headers")?.contains("Content-Range") == true)
        let refused = try await server.request("GET", "/rest/v1/locations", apiKey: .some(nil), headers: origin)
        #expect(refused.status == 401)
        #expect(refused.header("Access-Control-Allow-Origin") == "https://app.example")

        // Without Origin nothing is added; functions keep their wildcard rule.
        let plain = try await server.request("GET", "/rest/v1/locations?select=id")
        #expect(plain.header("Access-Control-Allow-Origin") == nil)
        let function = try await server.request("OPTIONS", "/functions/v1/check-in", apiKey: .some(nil), headers: origin)
        #expect(function.header("Access-Control-Allow-Origin") == "*")
    }

    @Test("functions answer with the Edge Functions' wildcard on every reply, refusals included, Origin or not", arguments: Engine.allCases)
    func functions(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let preflight = try await server.request("OPTIONS", "/functions/v1/check-in", apiKey: .some(nil))
        #expect(preflight.status == 200)
        #expect(preflight.text == "ok")
        #expect(preflight.header("Access-Control-Allow-Methods") == "GET, POST, PUT, PATCH, DELETE, OPTIONS")
        #expect(preflight.header("Access-Control-Max-Age") == nil, "the PostgREST rule must not leak into functions")
        // Refused by the gateway (no key), by the function (no bearer), and unknown: all carry `*`.
        let noKey = try await server.request("POST", "/functions/v1/check-in", apiKey: .some(nil))
        #expect(noKey.status == 401)
        let noBearer = try await server.request("POST", "/functions/v1/check-in")
        #expect(noBearer.status == 401)
        let unknown = try await server.request("POST", "/functions/v1/no-such-function", headers: ["Origin": "https://app.example"])
        #expect(unknown.status == 404)
        for reply in [noKey, noBearer, unknown] {
            #expect(reply.header("Access-Control-Allow-Origin") == "*")
            #expect(reply.header("Access-Control-Allow-Headers") == "authorization, x-client-info, apikey, content-type")
        }
    }

    @Test("a cross-origin request to a route that does not exist still carries the origin")
    func unmatchedRoute() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let reply = try await server.request("GET", "/auth/v1/no/such/route", headers: ["Origin": "https://app.example"])
        #expect(reply.status == 404)
        #expect(reply.header("Access-Control-Allow-Origin") == "https://app.example")
        // Paths outside the three APIs are left alone.
        let health = try await server.request("GET", "/health", headers: ["Origin": "https://app.example"])
        #expect(health.status == 200)
        #expect(health.header("Access-Control-Allow-Origin") == nil)
    }
}
