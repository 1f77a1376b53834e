import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The issue's "bad input" promise across the whole surface at once: a concurrent burst of
/// malformed requests, each answered with its exact status and error code, nothing written,
/// and the server serving normal requests afterwards.
@Suite("A burst of bad input")
struct BadInputBurstTests {
    struct BadRequest: Sendable {
        let name: String
        let method: String
        let path: String
        var apiKey: String?? = .none
        var bearer: String?
        var headers: [String: String] = [:]
        var body: Data?
        let status: Int
        /// The error code in the body, under `code` (PostgREST, GoTrue 2024, functions) or
        /// `error_code`; `nil` to check only the status.
        let code: String?
    }

    static func cases(_ server: TestServer, user: IssuedSession, expired: String) -> [BadRequest] {
        let forged = user.accessToken.dropLast(4) + "AAAA"
        let gotrue = ["X-Supabase-Api-Version": "2024-01-01"]
        return [
            BadRequest(name: "no apikey", method: "GET", path: "/rest/v1/locations", apiKey: .some(nil), status: 401, code: nil),
            BadRequest(name: "forged apikey", method: "GET", path: "/rest/v1/locations", apiKey: .some(String(forged)), status: 401, code: nil),
            BadRequest(name: "unknown table", method: "GET", path: "/rest/v1/nope", status: 404, code: "PGRST205"),
            BadRequest(name: "unknown column", method: "GET", path: "/rest/v1/locations?select=nope", status: 400, code: "42703"),
            BadRequest(name: "malformed filter", method: "GET", path: "/rest/v1/locations?name=zz.x", status: 400, code: "PGRST100"),
            BadRequest(name: "malformed or tree", method: "GET", path: "/rest/v1/locations?or=(name.eq.a", status: 400, code: "PGRST100"),
            BadRequest(name: "malformed order", method: "GET", path: "/rest/v1/locations?order=name.sideways", status: 400, code: "PGRST100"),
            BadRequest(name: "negative limit", method: "GET", path: "/rest/v1/locations?limit=-1", status: 416, code: "PGRST103"),
            BadRequest(name: "expired JWT", method: "GET", path: "/rest/v1/locations", bearer: expired, status: 401, code: "PGRST303"),
            BadRequest(name: "forged JWT", method: "GET", path: "/rest/v1/locations", bearer: String(forged), status: 401, code: "PGRST301"),
            BadRequest(
                name: "broken JSON", method: "POST", path: "/rest/v1/locations", bearer: user.accessToken,
                body: Data("{\"name\": ".utf8), status: 400, code: "PGRST102"),
            BadRequest(
                name: "unknown column in body", method: "POST", path: "/rest/v1/locations", bearer: user.accessToken,
                body: Data("{\"name\":\"a\",\"slug\":\"a\",\"colour\":\"red\"}".utf8), status: 400, code: "PGRST204"),
            BadRequest(
                name: "wrong type", method: "POST", path: "/rest/v1/locations", bearer: user.accessToken,
                body: Data("{\"name\":\"a\",\"slug\":\"a\",\"sort_order\":\"first\"}".utf8), status: 400, code: "22P02"),
            BadRequest(
                name: "anonymous insert", method: "POST", path: "/rest/v1/locations",
                body: Data("{\"name\":\"a\",\"slug\":\"a\"}".utf8), status: 401, code: "42501"),
            BadRequest(name: "unfiltered delete", method: "DELETE", path: "/rest/v1/locations", bearer: user.accessToken, status: 400, code: "21000"),
            BadRequest(
                name: "oversized function body", method: "POST", path: "/functions/v1/check-in", bearer: user.accessToken,
                body: Data(repeating: UInt8(ascii: " "), count: 2 << 20), status: 413, code: nil),
            BadRequest(
                name: "function broken JSON", method: "POST", path: "/functions/v1/update-check-in-settings", bearer: user.accessToken,
                body: Data("{".utf8), status: 400, code: nil),
            BadRequest(name: "function without user", method: "POST", path: "/functions/v1/check-in", status: 401, code: nil),
            BadRequest(name: "unknown function", method: "POST", path: "/functions/v1/nope", bearer: user.accessToken, status: 404, code: nil),
            BadRequest(
                name: "verify with a wrong code", method: "POST", path: "/auth/v1/verify", headers: gotrue,
                body: Data("{\"type\":\"sms\",\"phone\":\"+15550009999\",\"token\":\"000000\"}".utf8), status: 403, code: "otp_expired"),
            BadRequest(
                name: "bad phone", method: "POST", path: "/auth/v1/otp", headers: gotrue,
                body: Data("{\"phone\":\"call me\"}".utf8), status: 400, code: "validation_failed"),
            BadRequest(
                name: "user with a forged token", method: "GET", path: "/auth/v1/user", bearer: String(forged), headers: gotrue,
                status: 403, code: "bad_jwt"),
            BadRequest(
                name: "refresh with an unknown token", method: "POST", path: "/auth/v1/token?grant_type=refresh_token", headers: gotrue,
                body: Data("{\"refresh_token\":\"nope\"}".utf8), status: 400, code: "refresh_token_not_found"),
        ]
    }

    /// `bad` on a plain socket, with the JSON content type ``TestServer`` gives a body.
    static func sentPlainly(_ bad: BadRequest, server: TestServer) async -> (Int, String)? {
        var headers = bad.headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        return await ConnectionTestSocket.exchange(
            bad.method, bad.path, server: server, apiKey: bad.apiKey, bearer: bad.bearer, headers: headers, body: bad.body
        ).map { ($0.status, $0.body) }
    }

    @Test("every bad request gets its exact error, nothing is written, and the server keeps serving", arguments: Engine.allCases)
    func burst(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, bodyLimit: 1 << 20)
        defer { Task { await server.stop() } }
        let user = try await test.signIn("+15550001111")
        let expiredSession = try await test.signIn("+15550002222")
        test.clock.advance(by: 7200)
        let user2 = try await test.signInEditor("+15550001111")
        let tables = ["locations", "check_ins", "auth_users", "auth_sessions", "notifications"]
        var before: [String: Int] = [:]
        for table in tables { before[table] = try await test.count(table) }

        let cases = Self.cases(server, user: user2, expired: expiredSession.accessToken)
        // Three rounds of every case, each round's cases all in flight together, over the NIO
        // test client: a 408 would be the server's fault, not a stalled URLSession upload.
        var results: [(String, Int, String?, Int, String?, String)] = []
        for _ in 0..<3 {
            results += try await withThrowingTaskGroup(of: (String, Int, String?, Int, String?, String).self) { group in
                for bad in cases {
                    group.addTask {
                        let reply = try await server.requestOverNIO(
                            bad.method, bad.path, apiKey: bad.apiKey, bearer: bad.bearer,
                            headers: bad.headers, body: bad.body)
                        let (status, text) = (reply.status, reply.text)
                        let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: any Sendable]
                        let code = (json?["code"] as? String) ?? (json?["error_code"] as? String)
                        return (bad.name, status, code, bad.status, bad.code, String(text.prefix(300)))
                    }
                }
                var round: [(String, Int, String?, Int, String?, String)] = []
                for try await result in group { round.append(result) }
                return round
            }
        }
        #expect(results.count == cases.count * 3)
        for (name, status, code, expectedStatus, expectedCode, text) in results {
            #expect(status == expectedStatus, "\(name): status \(status): \(text)")
            if let expectedCode { #expect(code == expectedCode, "\(name): code \(code ?? "nil")") }
        }
        // A plain socket gets the same answers.
        for bad in cases where bad.body != nil && bad.body?.count ?? 0 < 1_000 {
            let plain = await Self.sentPlainly(bad, server: server)
            #expect(plain?.0 == bad.status, "\(bad.name) on a plain socket: \(plain.map { "\($0.0) \($0.1.prefix(200))" } ?? "no answer")")
        }
        for table in tables { #expect(try await test.count(table) == before[table], "\(table) changed") }

        // Normal requests still work.
        let made = try await server.json(
            "POST", "/rest/v1/locations", bearer: user2.accessToken,
            ["name": "Fine", "slug": "fine", "created_by": user2.user.id.description])
        #expect(made.status == 201)
        #expect(try await server.request("POST", "/functions/v1/check-in", bearer: user2.accessToken).status == 200)
        #expect(try await server.request("GET", "/health").status == 200)
        _ = user
    }
}
