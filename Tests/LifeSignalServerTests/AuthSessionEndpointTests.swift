import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Sessions as GoTrue keeps them, over HTTP: a token names its session, a token of an ended
/// session is refused by `/auth/v1` and the functions, and `logout` takes a scope
/// (docs/security.md, "Sessions").
@Suite("/auth/v1 sessions and logout scopes")
struct AuthSessionEndpointTests {
    @Test("a token names its session; once the session ends, /user and the functions refuse it in GoTrue's shapes", arguments: Engine.allCases)
    func endedSessionRefused(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let first = try await SessionSteps.signUp(server, "ada@example.org")
        let second = try await SessionSteps.signIn(server, email: "ada@example.org")

        let named = try #require(try SessionSteps.claims(first.access)["session_id"] as? String)
        let stored = try await test.backend.database.query("SELECT user_id FROM auth_sessions WHERE id = \(SQLValue(UUID(uuidString: named)))")
        #expect(try stored.first?.uuid("user_id").uuidString.lowercased() == first.userID, "session_id names a stored session of this person")
        #expect(try SessionSteps.claims(second.access)["session_id"] as? String != named, "each sign-in is its own session")
        #expect(try await SessionSteps.userStatus(server, first.access) == 200)
        #expect(try await server.request("POST", "/functions/v1/get-contacts", bearer: first.access).status == 200)

        let out = try await server.request("POST", "/auth/v1/logout?scope=local", bearer: first.access, headers: SessionSteps.version)
        #expect(out.status == 204)
        #expect(out.body.isEmpty)

        let versioned = try await server.request("GET", "/auth/v1/user", bearer: first.access, headers: SessionSteps.version)
        #expect(versioned.status == 403)
        #expect(versioned.json?["code"] as? String == "session_not_found")
        #expect(versioned.json?["message"] as? String == "Session from session_id claim in JWT does not exist")
        #expect(versioned.header("X-Supabase-Api-Version") == "2024-01-01")
        let legacy = try await server.request("GET", "/auth/v1/user", bearer: first.access)
        #expect(legacy.status == 403)
        #expect(legacy.json?["code"] as? Int == 403)
        #expect(legacy.json?["error_code"] as? String == "session_not_found")
        #expect(legacy.json?["msg"] as? String == "Session from session_id claim in JWT does not exist")
        #expect(legacy.header("x-sb-error-code") == "session_not_found")
        let put = try await server.json("PUT", "/auth/v1/user", bearer: first.access, headers: SessionSteps.version, ["data": ["a": 1]])
        #expect(put.status == 403)
        #expect(put.json?["code"] as? String == "session_not_found")
        let again = try await server.request("POST", "/auth/v1/logout", bearer: first.access, headers: SessionSteps.version)
        #expect(again.status == 403, "an ended session cannot sign anyone out")
        #expect(again.json?["code"] as? String == "session_not_found")

        let function = try await server.request("POST", "/functions/v1/get-contacts", bearer: first.access)
        #expect(function.status == 401)
        #expect(function.json?["code"] as? String == "session_not_found")
        let refreshed = try await SessionSteps.refresh(server, first.refresh)
        #expect(refreshed.status == 400)
        #expect(refreshed.json?["code"] as? String == "refresh_token_not_found")

        #expect(try await SessionSteps.userStatus(server, second.access) == 200, "the other session goes on")
        #expect(try await server.request("POST", "/functions/v1/get-contacts", bearer: second.access).status == 200)
        // A token minted with the secret but naming no session is not a sign-in's: GoTrue lets it through, so does this server.
        var minted = TokenClaims(role: "authenticated")
        minted.sub = second.userID
        minted.exp = Int(test.clock.now.timeIntervalSince1970) + 600
        let unnamed = await JWTSigner(secret: "test-secret-with-at-least-32-characters!").sign(minted)
        #expect(try await SessionSteps.userStatus(server, unnamed) == 200)
        minted.sessionID = "not-a-uuid"
        let forged = await JWTSigner(secret: "test-secret-with-at-least-32-characters!").sign(minted)
        #expect(try await SessionSteps.userStatus(server, forged) == 403)
    }

    @Test("logout ends global (the default), local or other sessions with their refresh tokens; a bad scope is refused", arguments: Engine.allCases)
    func logoutScopes(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let one = try await SessionSteps.signUp(server, "grace@example.org")
        let two = try await SessionSteps.signIn(server, email: "grace@example.org")
        let three = try await SessionSteps.signIn(server, email: "grace@example.org")
        let bob = try await SessionSteps.signUp(server, "bob@example.org")

        let bad = try await server.request("POST", "/auth/v1/logout?scope=everywhere", bearer: one.access, headers: SessionSteps.version)
        #expect(bad.status == 400)
        #expect(bad.json?["code"] as? String == "validation_failed")
        #expect(bad.json?["message"] as? String == "Unsupported logout scope \"everywhere\"")
        #expect(try await SessionSteps.sessionCount(test, user: one.userID) == 3, "a refused logout ends nothing")

        #expect(try await server.request("POST", "/auth/v1/logout?scope=others", bearer: one.access).status == 204)
        #expect(try await SessionSteps.userStatus(server, one.access) == 200, "others keeps the caller's own session")
        for ended in [two, three] {
            #expect(try await SessionSteps.userStatus(server, ended.access) == 403)
            #expect(try await SessionSteps.refresh(server, ended.refresh).json?["code"] as? String == "refresh_token_not_found")
        }
        #expect(try await SessionSteps.sessionCount(test, user: one.userID) == 1)
        let kept = try await SessionSteps.refresh(server, one.refresh)
        #expect(kept.status == 200)
        let current = try SessionSteps.tokens(kept)

        let four = try await SessionSteps.signIn(server, email: "grace@example.org")
        #expect(try await server.request("POST", "/auth/v1/logout", bearer: four.access).status == 204)
        for ended in [current, four] {
            #expect(try await SessionSteps.userStatus(server, ended.access) == 403, "global is the default scope")
            #expect(try await SessionSteps.refresh(server, ended.refresh).status == 400)
        }
        #expect(try await SessionSteps.sessionCount(test, user: one.userID) == 0)
        let orphans = try await test.backend.database.query(
            """
            SELECT count(*) AS n FROM auth_refresh_tokens t LEFT JOIN auth_sessions s ON s.id = t.session_id WHERE s.id IS NULL
            """)
        #expect(try orphans.first?.int("n") == 0, "refresh tokens go with their sessions")
        #expect(try await SessionSteps.userStatus(server, bob.access) == 200, "another person's session is untouched")

        let five = try await SessionSteps.signIn(server, email: "grace@example.org")
        let six = try await SessionSteps.signIn(server, email: "grace@example.org")
        #expect(try await server.request("POST", "/auth/v1/logout?scope=global", bearer: five.access).status == 204)
        #expect(try await SessionSteps.userStatus(server, six.access) == 403)
        #expect(try await SessionSteps.userStatus(server, bob.access) == 200)
    }

    @Test("a session ended through another server on the same database is refused within the staleness bound")
    func endedElsewhere() async throws {
        let test = try await TestDatabases.backend(.postgres) { $0.authPolicy.sessionCheckStaleness = 0 }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let other = try await TestDatabases.reopen(test)
        let session = try await SessionSteps.signUp(server, "lin@example.org")
        #expect(try await SessionSteps.userStatus(server, session.access) == 200)
        let claims = try await test.backend.auth.tokens.verify(session.access)
        try await other.backend.auth.sessions.signOut(user: try #require(UserID(string: session.userID)), session: Sessions.id(of: claims), scope: .local)
        #expect(try await SessionSteps.userStatus(server, session.access) == 403)
        #expect(try await server.request("POST", "/functions/v1/get-contacts", bearer: session.access).status == 401)
    }
}
