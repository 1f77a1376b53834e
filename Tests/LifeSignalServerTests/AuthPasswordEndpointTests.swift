import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `/auth/v1` email and password: sign-up, password grant, `PUT /user` (GoTrue's endpoints and error shapes).
@Suite("/auth/v1 email and password")
struct AuthPasswordEndpointTests {
    static let version = ["X-Supabase-Api-Version": "2024-01-01"]

    @Test("sign up, sign in, use the session, change the profile", arguments: Engine.allCases)
    func lifecycle(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }

        let signup = try await server.json(
            "POST", "/auth/v1/signup", headers: Self.version,
            ["email": " Ada@Example.org ", "password": "lovelace1815", "data": ["display": "Ada"]])
        #expect(signup.status == 200)
        let user = try #require(signup.json?["user"] as? [String: any Sendable])
        #expect(user["email"] as? String == "ada@example.org")
        #expect((user["user_metadata"] as? [String: any Sendable])?["display"] as? String == "Ada")
        #expect((user["app_metadata"] as? [String: any Sendable])?["provider"] as? String == "email")
        let token = try #require(signup.json?["access_token"] as? String)
        #expect(try Self.amrMethods(token) == ["password"])
        #expect(!signup.text.contains("pbkdf2") && !signup.text.contains("lovelace1815"), "no hash or password in the reply")
        #expect(try await server.request("GET", "/auth/v1/user", bearer: token).status == 200)
        let refreshToken = try #require(signup.json?["refresh_token"] as? String)
        let refreshed = try await server.json("POST", "/auth/v1/token?grant_type=refresh_token", headers: Self.version, ["refresh_token": refreshToken])
        #expect(try Self.amrMethods(try #require(refreshed.json?["access_token"] as? String)) == ["password"], "a refresh keeps how the session began")
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: token).jsonArray?.count == 1)

        let signin = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version,
            ["email": "ada@example.org", "password": "lovelace1815"])
        #expect(signin.status == 200)
        let second = try #require(signin.json?["access_token"] as? String)

        let updated = try await server.json(
            "PUT", "/auth/v1/user", bearer: second, headers: Self.version,
            ["password": "analytical-engine", "data": ["display": NSNull(), "city": "London"] as [String: any Sendable]])
        #expect(updated.status == 200)
        #expect((updated.json?["user_metadata"] as? [String: any Sendable])?["city"] as? String == "London")
        #expect((updated.json?["user_metadata"] as? [String: any Sendable])?["display"] == nil)
        let old = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version,
            ["email": "ada@example.org", "password": "lovelace1815"])
        #expect(old.status == 400)
        #expect(old.json?["code"] as? String == "invalid_credentials")
        let new = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version,
            ["email": "ada@example.org", "password": "analytical-engine"])
        #expect(new.status == 200)
    }

    @Test("a phone account adds a password with PUT /user and then signs in with phone and password", arguments: Engine.allCases)
    func phonePassword(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let session = try await test.signIn("+15550002222")
        #expect(try Self.amrMethods(session.accessToken) == ["otp"])

        let before = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version, ["phone": "15550002222", "password": "anything-at-all"])
        #expect(before.status == 400, "a phone account without a password cannot sign in with one")
        #expect(before.json?["code"] as? String == "invalid_credentials")

        let set = try await server.json(
            "PUT", "/auth/v1/user", bearer: session.accessToken, headers: Self.version,
            ["password": "a-long-pass", "email": "Phone.Person@Example.org"])
        #expect(set.status == 200)
        #expect(set.json?["email"] as? String == "phone.person@example.org")
        #expect(set.json?["phone"] as? String == "15550002222")
        for phone in ["+15550002222", "15550002222"] {
            let signin = try await server.json(
                "POST", "/auth/v1/token?grant_type=password", headers: Self.version, ["phone": phone, "password": "a-long-pass"])
            #expect(signin.status == 200, "\(phone)")
            #expect(try Self.amrMethods(try #require(signin.json?["access_token"] as? String)) == ["password"])
        }
        let byEmail = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version, ["email": "phone.person@example.org", "password": "a-long-pass"])
        #expect(byEmail.status == 200)

        // Another account cannot take that phone number; it learns so only with the code sent
        // to that phone (AuthSessionLifetimeEndpointTests.phoneChangePrivacy).
        let other = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "other@example.org", "password": "other-pass"])
        let otherToken = try #require(other.json?["access_token"] as? String)
        let taken = try await server.json("PUT", "/auth/v1/user", bearer: otherToken, headers: Self.version, ["phone": "+15550002222"])
        #expect(taken.status == 200)
        let code = try #require(await test.sms.lastCode(for: try PhoneNumber("+15550002222"))).value
        let verify = try await server.json("POST", "/auth/v1/verify", headers: Self.version, ["type": "phone_change", "phone": "+15550002222", "token": code])
        #expect(verify.status == 422)
        #expect(verify.json?["code"] as? String == "phone_exists")
        let users = try await test.backend.database.query("SELECT phone FROM users ORDER BY phone")
        #expect(try users.map { try $0.string("phone") } == ["", "+15550002222"], "the email-only account keeps its empty phone")
    }

    /// The `method`s of a token's `amr` claim.
    static func amrMethods(_ token: String) throws -> [String] {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return [] }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: payload))
        let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (claims["amr"] as? [[String: Any]])?.compactMap { $0["method"] as? String } ?? []
    }

    @Test("refusals carry GoTrue's codes and create nothing", arguments: Engine.allCases)
    func refusals(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let first = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "grace@example.org", "password": "cobol1959"])
        #expect(first.status == 200)
        let token = try #require(first.json?["access_token"] as? String)
        let before = try await test.count("auth_users")

        let cases: [(method: String, path: String, bearer: String?, body: [String: any Sendable], status: Int, code: String)] = [
            ("POST", "/auth/v1/signup", nil, ["email": "grace@example.org", "password": "another1"], 422, "user_already_exists"),
            ("POST", "/auth/v1/signup", nil, ["email": "new@example.org", "password": "short"], 422, "weak_password"),
            ("POST", "/auth/v1/signup", nil, ["email": "not-an-address", "password": "long enough"], 400, "validation_failed"),
            ("POST", "/auth/v1/signup", nil, ["email": "new@example.org"], 400, "validation_failed"),
            ("POST", "/auth/v1/token?grant_type=password", nil, ["email": "grace@example.org", "password": "wrong"], 400, "invalid_credentials"),
            ("POST", "/auth/v1/token?grant_type=password", nil, ["email": "nobody@example.org", "password": "whatever"], 400, "invalid_credentials"),
            ("POST", "/auth/v1/token?grant_type=password", nil, ["email": "a@b.co", "phone": "+15550001111", "password": "x"], 400, "validation_failed"),
            ("POST", "/auth/v1/token?grant_type=magic", nil, [:], 400, "invalid_credentials"),
            ("PUT", "/auth/v1/user", nil, ["password": "something long"], 401, "no_authorization"),
            ("PUT", "/auth/v1/user", "forged.token.here", ["password": "something long"], 403, "bad_jwt"),
            ("PUT", "/auth/v1/user", server.anonKey, ["password": "something long"], 403, "bad_jwt"),
            ("PUT", "/auth/v1/user", token, ["password": "tiny"], 422, "weak_password"),
            ("PUT", "/auth/v1/user", token, ["data": "not an object"], 400, "validation_failed"),
        ]
        for refused in cases {
            let reply = try await server.json(refused.method, refused.path, bearer: refused.bearer, headers: Self.version, refused.body)
            #expect(reply.status == refused.status, "\(refused.path) \(refused.body)")
            #expect(reply.json?["code"] as? String == refused.code, "\(refused.path) \(refused.body)")
        }
        // Exact words, the echoed version header, and the weak-password reasons (GoTrue's `weak_password`).
        let exists = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "GRACE@example.org", "password": "another1"])
        #expect(exists.header("X-Supabase-Api-Version") == "2024-01-01")
        #expect(exists.json?["message"] as? String == "User already registered")
        let weak = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "new@example.org", "password": "12345"])
        #expect((weak.json?["weak_password"] as? [String: any Sendable])?["reasons"] as? [String] == ["length"])
        let badEmail = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "a@b", "password": "long enough"])
        #expect(badEmail.json?["message"] as? String == "Unable to validate email address: invalid format")
        let wrong = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: Self.version, ["email": "grace@example.org", "password": "wrong-one"])
        #expect(wrong.json?["message"] as? String == "Invalid login credentials")
        let grant = try await server.json("POST", "/auth/v1/token?grant_type=magic", headers: Self.version, [:])
        #expect(grant.json?["message"] as? String == "unsupported_grant_type")
        let noBearer = try await server.json("PUT", "/auth/v1/user", headers: Self.version, ["data": ["a": 1]])
        #expect(noBearer.json?["message"] as? String == "This endpoint requires a valid Bearer token")

        // The older error shape when the client sends no version header.
        let legacy = try await server.json("POST", "/auth/v1/signup", ["email": "grace@example.org", "password": "another1"])
        #expect(legacy.status == 422)
        #expect(legacy.json?["code"] as? Int == 422)
        #expect(legacy.json?["error_code"] as? String == "user_already_exists")
        #expect(legacy.json?["msg"] as? String == "User already registered")
        #expect(legacy.header("x-sb-error-code") == "user_already_exists")
        #expect(legacy.header("X-Supabase-Api-Version") == nil)
        let legacyWeak = try await server.json("PUT", "/auth/v1/user", bearer: token, ["password": "abc"])
        #expect(legacyWeak.status == 422)
        #expect(legacyWeak.json?["error_code"] as? String == "weak_password")
        #expect((legacyWeak.json?["weak_password"] as? [String: any Sendable])?["reasons"] as? [String] == ["length"])
        #expect(try await test.count("auth_users") == before)
        #expect(try await test.count("users") == before)

        let other = try await server.json("POST", "/auth/v1/signup", headers: Self.version, ["email": "other@example.org", "password": "other-pass"])
        let otherToken = try #require(other.json?["access_token"] as? String)
        let taken = try await server.json("PUT", "/auth/v1/user", bearer: otherToken, headers: Self.version, ["email": "grace@example.org"])
        #expect(taken.status == 422)
        #expect(taken.json?["code"] as? String == "email_exists")
        #expect(try await test.count("auth_users") == before + 1)
    }
}
