import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// SupabaseREST's Auth client against a real `lifesignal serve` on both engines: email and
/// password, `PUT /user`, sign-out, the auth-state stream, file session storage, and
/// refreshes (one at a time, reuse detected).
@Suite("SupabaseREST auth live against lifesignal serve")
struct SupabaseAuthLiveTests {
    static func sessionFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-auth-\(UUID().uuidString)/session.json")
    }

    static func client(_ server: TestServer, storage: any AuthLocalStorage, refreshMargin: Duration = .seconds(60)) -> SupabaseClient {
        SupabaseClient(
            supabaseURL: server.baseURL, supabaseKey: server.anonKey,
            options: SupabaseClientOptions(auth: .init(storage: storage, refreshMargin: refreshMargin)))
    }

    @Test("email and password: sign up, user, update, sign out, typed refusals, sign in, session kept in a file", arguments: Engine.allCases)
    func emailPassword(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let file = Self.sessionFile()
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let client = Self.client(server, storage: FileAuthStorage(url: file))
        var events = client.auth.authStateChanges.makeAsyncIterator()
        #expect(await events.next()?.event == .initialSession)

        let signedUp = try await client.auth.signUp(email: " Ada@Example.org ", password: "lovelace1815", data: ["display": "Ada"])
        let session = try #require(signedUp.session)
        #expect(session.user.email == "ada@example.org")
        #expect(session.user.userMetadata["display"] == "Ada")
        #expect(await events.next()?.event == .signedIn)
        #expect(try await client.auth.user().id == session.user.id)
        // PostgREST requests now carry the user's token: the users row policy lets them see theirs.
        let mine: [[String: AnyJSON]] = try await client.from("users").select("id").execute().value
        #expect(mine.count == 1)

        let updated = try await client.auth.update(user: UserAttributes(password: "analytical-engine", data: ["city": "London"]))
        #expect(updated.userMetadata["city"] == "London")
        #expect(client.auth.currentUser?.userMetadata["city"] == "London")
        #expect(await events.next()?.event == .userUpdated)

        try await client.auth.signOut()
        #expect(client.auth.currentSession == nil)
        #expect(await events.next()?.event == .signedOut)
        await #expect(throws: AuthError.sessionMissing) { _ = try await client.auth.session }

        await #expect {
            try await client.auth.signIn(email: "ada@example.org", password: "lovelace1815")
        } throws: { error in
            guard case AuthError.api(let code, let message, let status) = error else { return false }
            return code == "invalid_credentials" && status == 400 && !message.isEmpty
        }
        await #expect {
            try await client.auth.signUp(email: "ada@example.org", password: "another-one")
        } throws: { ($0 as? AuthError)?.code == "user_already_exists" }
        await #expect {
            try await client.auth.signUp(email: "new@example.org", password: "short")
        } throws: { error in
            guard case AuthError.api("weak_password", _, 422) = error else { return false }
            return true
        }
        #expect(client.auth.currentSession == nil)

        let signedIn = try await client.auth.signIn(email: "ada@example.org", password: "analytical-engine")
        #expect(signedIn.user.id == session.user.id)
        #expect(await events.next()?.event == .signedIn)

        // A second client (a relaunch) reads the session back from the same file.
        let relaunched = Self.client(server, storage: FileAuthStorage(url: file))
        #expect(relaunched.auth.currentSession?.accessToken == signedIn.accessToken)
        #expect(try await relaunched.auth.user().email == "ada@example.org")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a near-expiry session is refreshed once for concurrent callers; a reused refresh token ends the session", arguments: Engine.allCases)
    func refresh(engine: Engine) async throws {
        // The server's clock is the real time, so `expires_at` is meaningful to the client.
        let test = try await TestDatabases.backend(engine, clock: ManualClock(Date()))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        // A margin longer than the token's lifetime: every use of the session refreshes it.
        let client = Self.client(server, storage: InMemoryAuthStorage(), refreshMargin: .seconds(7200))
        let first = try #require(try await client.auth.signUp(email: "grace@example.org", password: "cobol1959").session)

        let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
            for _ in 0..<6 { group.addTask { try await client.auth.session } }
            return try await group.reduce(into: [Session]()) { $0.append($1) }
        }
        // Two refreshes with the same token would make the server revoke the session.
        #expect(Set(sessions.map(\.refreshToken)).count == 1)
        #expect(sessions[0].refreshToken != first.refreshToken)
        #expect(try await client.auth.user(jwt: sessions[0].accessToken).email == "grace@example.org")

        let rotated = try await client.auth.refreshSession()
        #expect(rotated.refreshToken != sessions[0].refreshToken)

        await #expect(throws: AuthError.sessionMissing) {
            try await client.auth.refreshSession(refreshToken: first.refreshToken)
        }
        #expect(client.auth.currentSession == nil)
    }
}
