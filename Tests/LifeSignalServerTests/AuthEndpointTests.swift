import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("/auth/v1 and the API-key gateway")
struct AuthEndpointTests {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]

    @Test("requests without a valid apikey are refused as Supabase's gateway does", arguments: Engine.allCases)
    func apiKey(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let missing = try await server.request("GET", "/rest/v1/users", apiKey: .some(nil))
        #expect(missing.status == 401)
        #expect(missing.json?["message"] as? String == "No API key found in request")
        let wrong = try await server.request("GET", "/rest/v1/users", apiKey: .some("not-a-key"))
        #expect(wrong.status == 401)
        #expect(wrong.json?["message"] as? String == "Invalid API key")
        let foreign = await JWTSigner(secret: "someone-else-entirely-0123456789abcdef").sign(TokenClaims(role: "anon"))
        #expect(try await server.request("GET", "/rest/v1/users", apiKey: .some(foreign)).status == 401)
        // A key minted elsewhere with the project's secret is as good as the server's own.
        let minted = await JWTSigner(secret: "test-secret-with-at-least-32-characters!").sign(TokenClaims(role: "anon"))
        #expect(try await server.request("GET", "/rest/v1/users", apiKey: .some(minted)).status == 401)  // anon has no grant on users
        #expect(try await server.request("GET", "/health", apiKey: .some(nil)).status == 200)
        // Readiness needs no key either. The test server waited for it, but on PostgreSQL each
        // answer checks the database again, and the whole suite on two cores can starve one
        // check; so it is asked until it says ready (a bound of a minute against a hang).
        var ready = try await server.request("GET", "/ready", apiKey: .some(nil))
        for _ in 0..<60 where ready.status != 200 {
            #expect(ready.status == 503, "\(ready.status) \(ready.text)")
            try await Task.sleep(for: .seconds(1))
            ready = try await server.request("GET", "/ready", apiKey: .some(nil))
        }
        #expect(ready.status == 200 && ready.json?["status"] as? String == "ready", "\(ready.status) \(ready.text)")
    }

    @Test("phone sign-in over HTTP returns a GoTrue session", arguments: Engine.allCases)
    func signIn(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let otp = try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550001111"])
        #expect(otp.status == 200)
        let verify = try await server.json(
            "POST", "/auth/v1/verify", headers: Self.version,
            ["type": "sms", "phone": "+15550001111", "token": "123456"])
        #expect(verify.status == 200)
        let session = try #require(verify.json)
        #expect(session["token_type"] as? String == "bearer")
        #expect(session["expires_in"] as? Int == 3600)
        #expect(session["refresh_token"] as? String != nil)
        let user = try #require(session["user"] as? [String: any Sendable])
        #expect(user["phone"] as? String == "15550001111")
        #expect(user["aud"] as? String == "authenticated")
        let token = try #require(session["access_token"] as? String)
        let me = try await server.request("GET", "/auth/v1/user", bearer: token)
        #expect(me.status == 200)
        #expect(me.json?["id"] as? String == user["id"] as? String)

        // Refresh rotates the token; the old one then revokes the session when reused.
        let refreshToken = try #require(session["refresh_token"] as? String)
        let refreshed = try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", headers: Self.version, ["refresh_token": refreshToken])
        #expect(refreshed.status == 200)
        let newRefresh = try #require(refreshed.json?["refresh_token"] as? String)
        #expect(newRefresh != refreshToken)
        let reused = try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", headers: Self.version, ["refresh_token": refreshToken])
        #expect(reused.status == 400)
        #expect(reused.json?["code"] as? String == "refresh_token_already_used")
        let afterReuse = try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", headers: Self.version, ["refresh_token": newRefresh])
        #expect(afterReuse.json?["code"] as? String == "refresh_token_not_found")
        let unsupported = try await server.json("POST", "/auth/v1/token?grant_type=magic", headers: Self.version, ["x": "y"])
        #expect(unsupported.status == 400)

        // The reuse ended the session, so its access token can sign nothing out (GoTrue's
        // session_not_found); a live session's logout is 204.
        let logout = try await server.request("POST", "/auth/v1/logout", bearer: token, headers: Self.version)
        #expect(logout.status == 403)
        #expect(logout.json?["code"] as? String == "session_not_found")
        #expect(try await test.count("auth_sessions") == 0)
        #expect(try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550001111"]).status == 200)
        let again = try await server.json("POST", "/auth/v1/verify", headers: Self.version, ["type": "sms", "phone": "+15550001111", "token": "123456"])
        let live = try #require(again.json?["access_token"] as? String)
        #expect(try await server.request("POST", "/auth/v1/logout", bearer: live).status == 204)
        #expect(try await test.count("auth_sessions") == 0)
    }

    @Test("bad phone, wrong code and expired code get GoTrue errors and write nothing", arguments: Engine.allCases)
    func errors(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }

        let badPhone = try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "555"])
        #expect(badPhone.status == 400)
        #expect(badPhone.json?["code"] as? String == "validation_failed")
        #expect(badPhone.json?["message"] as? String == "Invalid phone number format (E.164 required)")
        #expect(badPhone.header("X-Supabase-Api-Version") == "2024-01-01")
        #expect(try await test.count("auth_one_time_codes") == 0)

        // Without the version header, the older shape: numeric code, error_code, msg.
        let legacy = try await server.json("POST", "/auth/v1/otp", ["phone": "555"])
        #expect(legacy.json?["code"] as? Int == 400)
        #expect(legacy.json?["error_code"] as? String == "validation_failed")
        #expect(legacy.header("x-sb-error-code") == "validation_failed")

        _ = try await server.json("POST", "/auth/v1/otp", headers: Self.version, ["phone": "+15550001111"])
        let wrong = try await server.json("POST", "/auth/v1/verify", headers: Self.version, ["type": "sms", "phone": "+15550001111", "token": "000000"])
        #expect(wrong.status == 403)
        #expect(wrong.json?["code"] as? String == "invalid_otp")
        test.clock.advance(by: 301)
        let expired = try await server.json("POST", "/auth/v1/verify", headers: Self.version, ["type": "sms", "phone": "+15550001111", "token": "123456"])
        #expect(expired.status == 403)
        #expect(expired.json?["code"] as? String == "otp_expired")
        #expect(try await test.count("auth_users") == 0)

        let broken = try await server.request("POST", "/auth/v1/verify", headers: Self.version, body: Data("{not json".utf8))
        #expect(broken.status == 400)
        #expect(broken.json?["code"] as? String == "bad_json")
        let noToken = try await server.request("GET", "/auth/v1/user", headers: Self.version)
        #expect(noToken.status == 401)
        #expect(noToken.json?["code"] as? String == "no_authorization")
        let badToken = try await server.request("GET", "/auth/v1/user", bearer: "x.y.z", headers: Self.version)
        #expect(badToken.status == 403)
        #expect(badToken.json?["code"] as? String == "bad_jwt")
    }
}
