import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalTestSupport
import Testing

@Suite("/functions/v1")
struct FunctionEndpointTests {
    @Test("check-in needs a signed-in bearer and refuses a repeat within five minutes", arguments: Engine.allCases)
    func checkIn(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, bodyLimit: 1024)
        defer { Task { await server.stop() } }
        let session = try await test.signIn("+15550001111")

        let missing = try await server.request("POST", "/functions/v1/check-in")
        #expect(missing.status == 401)
        #expect(missing.json?["code"] as? String == "unauthenticated")
        let forged = try await server.request("POST", "/functions/v1/check-in", bearer: "a.b.c")
        #expect(forged.status == 401)
        let anonymous = try await server.request("POST", "/functions/v1/check-in", bearer: server.anonKey)
        #expect(anonymous.status == 401)
        #expect(try await test.count("check_ins") == 0)

        let first = try await server.request("POST", "/functions/v1/check-in", bearer: session.accessToken)
        #expect(first.status == 200)
        #expect(first.json?["success"] as? Bool == true)
        #expect(first.json?["nextCheckInTime"] as? String == Timestamp.format(test.clock.now.addingTimeInterval(86400)))
        #expect(first.header("Access-Control-Allow-Origin") == "*")

        test.clock.advance(by: 60)
        let again = try await server.request("POST", "/functions/v1/check-in", bearer: session.accessToken)
        #expect(again.status == 400)
        #expect(again.json?["code"] as? String == "check_in_too_soon")
        #expect(again.json?["retry_after"] as? String == "240")
        #expect(again.header("Retry-After") == "240")
        #expect(try await test.count("check_ins") == 1)
    }

    @Test("bad bodies, unknown functions and preflight", arguments: [Engine.sqlite])
    func badInput(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend, bodyLimit: 1024)
        defer { Task { await server.stop() } }
        let session = try await test.signIn("+15550001111")

        let broken = try await server.request("POST", "/functions/v1/check-in", bearer: session.accessToken, body: Data("{".utf8))
        #expect(broken.status == 400)
        #expect(broken.json?["code"] as? String == "invalid_argument")
        let wrongType = try await server.request("POST", "/functions/v1/check-in", bearer: session.accessToken, body: Data(#"{"source":"telepathy"}"#.utf8))
        #expect(wrongType.status == 400)
        let huge = try await server.request("POST", "/functions/v1/check-in", bearer: session.accessToken, body: Data(repeating: 32, count: 4096))
        #expect(huge.status == 413)
        #expect(try await test.count("check_ins") == 0)
        let unknown = try await server.request("POST", "/functions/v1/teleport", bearer: session.accessToken)
        #expect(unknown.status == 404)
        let preflight = try await server.request("OPTIONS", "/functions/v1/check-in", apiKey: .some(nil))
        #expect(preflight.status == 200)
        #expect(preflight.header("Access-Control-Allow-Headers") == "authorization, x-client-info, apikey, content-type")
        // The server keeps serving after all that.
        #expect(try await server.request("POST", "/functions/v1/check-in", bearer: session.accessToken).status == 200)
    }
}

@Suite("Rate limit")
struct RateLimitTests {
    @Test("200 requests in a burst, then 429 with Retry-After, then refilled at 100 a minute", arguments: [Engine.sqlite])
    func burst(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let session = try await test.signIn("+15550001111")
        var statuses: [Int] = []
        for _ in 0..<201 {
            statuses.append(try await server.request("GET", "/rest/v1/users?select=id", bearer: session.accessToken).status)
        }
        #expect(statuses.prefix(200).allSatisfy { $0 == 200 })
        let limited = try await server.request("GET", "/rest/v1/users?select=id", bearer: session.accessToken)
        #expect(limited.status == 429)
        #expect(limited.header("Retry-After") == "1")
        // Someone else is not affected.
        let other = try await test.signIn("+15550002222")
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: other.accessToken).status == 200)
        test.clock.advance(by: 60)
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: session.accessToken).status == 200)
    }
}
