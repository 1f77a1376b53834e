import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Refresh-token inactivity, password length and hashing, and phone changes that do not say
/// which numbers have accounts — over HTTP on both engines.
@Suite("/auth/v1 session lifetime, passwords and account privacy")
struct AuthSessionLifetimeEndpointTests {
    @Test("a refresh token unused past the inactivity period is refused as GoTrue's session_expired; use keeps it alive", arguments: Engine.allCases)
    func refreshInactivity(engine: Engine) async throws {
        #expect(AuthPolicy().refreshTokenInactivity == 30 * 24 * 3600, "the documented default")
        let day: TimeInterval = 24 * 3600
        let test = try await TestDatabases.backend(engine) { $0.authPolicy.refreshTokenInactivity = 2 * day }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        var tokens = try await SessionSteps.signUp(server, "ada@example.org")
        for _ in 0..<3 {
            test.clock.advance(by: 1.9 * day)
            let reply = try await SessionSteps.refresh(server, tokens.refresh)
            #expect(reply.status == 200, "used within the period, the session goes on")
            tokens = try SessionSteps.tokens(reply)
        }
        #expect(try await SessionSteps.userStatus(server, tokens.access) == 200)
        test.clock.advance(by: 2 * day + 60)
        let expired = try await SessionSteps.refresh(server, tokens.refresh)
        #expect(expired.status == 400)
        #expect(expired.json?["code"] as? String == "session_expired")
        #expect(expired.json?["message"] as? String == "Invalid Refresh Token: Session Expired (Inactivity)")
        #expect(try await SessionSteps.sessionCount(test, user: tokens.userID) == 0, "the session has ended")
        let legacy = try await SessionSteps.refresh(server, tokens.refresh, headers: [:])
        #expect(legacy.status == 400)
        #expect(legacy.json?["error_code"] as? String == "refresh_token_not_found", "and its token is unknown from then on")
    }

    @Test("passwords shorter than the minimum (default 8, configurable) are 422 weak_password", arguments: Engine.allCases)
    func minimumLength(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let short = try await server.json("POST", "/auth/v1/signup", headers: SessionSteps.version, ["email": "a@example.org", "password": "seven77"])
        #expect(short.status == 422)
        #expect(short.json?["code"] as? String == "weak_password")
        #expect(short.json?["message"] as? String == "Password should be at least 8 characters.")
        #expect((short.json?["weak_password"] as? [String: any Sendable])?["reasons"] as? [String] == ["length"])
        #expect(
            try await server.json("POST", "/auth/v1/signup", headers: SessionSteps.version, ["email": "a@example.org", "password": "eight888"]).status == 200)

        let strict = try await TestDatabases.backend(engine) { $0.authPolicy.minimumPasswordLength = 12 }
        let strictServer = try await TestServer.start(strict.backend)
        defer { Task { await strictServer.stop() } }
        let session = try await SessionSteps.signUp(strictServer, "b@example.org", password: "twelve chars")
        let put = try await strictServer.json("PUT", "/auth/v1/user", bearer: session.access, ["password": "eleven char"])
        #expect(put.status == 422)
        #expect(put.json?["error_code"] as? String == "weak_password")
        #expect(put.json?["msg"] as? String == "Password should be at least 12 characters.")
        #expect(try await strict.count("auth_users") == 1)
    }

    @Test("hashes use OWASP's 600,000 rounds by default; an older, cheaper hash still signs in and is upgraded", arguments: Engine.allCases)
    func hashUpgrade(engine: Engine) async throws {
        #expect(PasswordHasher.defaultIterations == 600_000)
        #expect(LifeSignalBackend.Configuration(jwtSecret: "s").passwordIterations == 600_000)
        let test = try await TestDatabases.backend(engine) { $0.passwordIterations = 2000 }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let session = try await SessionSteps.signUp(server, "ada@example.org", password: "lovelace1815")
        func stored() async throws -> String {
            try await test.backend.database.query("SELECT encrypted_password FROM auth_users WHERE email = 'ada@example.org'").first?.string(
                "encrypted_password") ?? ""
        }
        #expect(try await stored().hasPrefix("pbkdf2-sha256$2000$"))
        let old = PasswordHasher(iterations: 1000).hash("lovelace1815")
        try await test.backend.database.query("UPDATE auth_users SET encrypted_password = \(old) WHERE id = \(SQLValue(UUID(uuidString: session.userID)))")

        let wrong = try await server.json(
            "POST", "/auth/v1/token?grant_type=password", headers: SessionSteps.version, ["email": "ada@example.org", "password": "babbage1791"])
        #expect(wrong.status == 400)
        #expect(try await stored() == old, "a wrong password upgrades nothing")
        _ = try await SessionSteps.signIn(server, email: "ada@example.org", password: "lovelace1815")
        let upgraded = try await stored()
        #expect(upgraded.hasPrefix("pbkdf2-sha256$2000$"))
        #expect(PasswordHasher(iterations: 2000).verify("lovelace1815", against: upgraded))
        _ = try await SessionSteps.signIn(server, email: "ada@example.org", password: "lovelace1815")
        #expect(try await stored() == upgraded, "an up-to-date hash is kept")
    }

    @Test("PUT /user with a taken phone answers as for a free one; only the code's holder learns it is taken", arguments: Engine.allCases)
    func phoneChangePrivacy(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        _ = try await test.signIn("+15550002222")
        let asker = try await SessionSteps.signUp(server, "ada@example.org")

        let taken = try await server.json("PUT", "/auth/v1/user", bearer: asker.access, headers: SessionSteps.version, ["phone": "+15550002222"])
        let free = try await server.json("PUT", "/auth/v1/user", bearer: asker.access, headers: SessionSteps.version, ["phone": "+15550004444"])
        #expect(taken.status == 200)
        #expect(free.status == 200)
        #expect(Set((taken.json ?? [:]).keys) == Set((free.json ?? [:]).keys))
        #expect(taken.json?["phone"] as? String == free.json?["phone"] as? String)

        let code = try #require(await test.sms.lastCode(for: try PhoneNumber("+15550002222"))).value
        let verify = try await server.json(
            "POST", "/auth/v1/verify", headers: SessionSteps.version, ["type": "phone_change", "phone": "+15550002222", "token": code])
        #expect(verify.status == 422)
        #expect(verify.json?["code"] as? String == "phone_exists")
        let owners = try await test.backend.database.query("SELECT count(*) AS n FROM auth_users WHERE phone = '15550002222'")
        #expect(try owners.first?.int("n") == 1, "the number stays with its account")
    }
}
