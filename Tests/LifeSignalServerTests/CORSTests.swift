import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

/// PostgREST's CORS on `/rest/v1` and `/auth/v1` (§A.13), and the Edge Functions' wildcard
/// CORS on `/functions/v1`, over a real socket.
@Suite("CORS")
struct CORSTests {
    @Test("a preflight is answered without a key, echoing the origin and the asked headers", arguments: Engine.allCases)
    func preflight(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        for path in ["/rest/v1/locations", "/auth/v1/token?grant_type=password"] {
            let reply = try await server.request("OPTIONS", path, apiKey: .some(nil), headers: [
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
}
