import Foundation
import Testing

@testable import SupabaseREST

/// GoTrue endpoints: exact requests and session bookkeeping (GoTrue's `/otp`, `/verify`, `/token`, `/user`, `/logout`).
@Suite struct AuthWireTests {
    @Test func signInWithOTPPhone() async throws {
        let transport = RecordingTransport(body: #"{"message_id":"m1"}"#)
        try await makeClient(transport).auth.signInWithOTP(phone: "+14155550100")
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.url.absoluteString == "https://project.supabase.co/auth/v1/otp")
        #expect(request.json == ["phone": "+14155550100", "create_user": true, "channel": "sms"])
        #expect(
            request.headers.lowercasedDictionary == [
                "apikey": anonKey, "authorization": "Bearer \(anonKey)", "x-client-info": "supabase-swift/2.55.1",
                "x-supabase-api-version": "2024-01-01", "content-type": "application/json",
            ])

        try await makeClient(transport).auth.signInWithOTP(
            phone: "+14155550100", channel: .whatsapp, shouldCreateUser: false, data: ["name": "Ada"])
        #expect(
            transport.last?.json == [
                "phone": "+14155550100", "create_user": false, "channel": "whatsapp", "data": ["name": "Ada"],
            ])
    }

    @Test func verifyOTPStoresTheSessionAndReportsSignedIn() async throws {
        let transport = RecordingTransport(body: sessionJSON(access: "a1", refresh: "r1"))
        let storage = InMemoryAuthStorage()
        let client = makeClient(transport, storage: storage)
        var events = client.auth.authStateChanges.makeAsyncIterator()
        let initial = await events.next()
        #expect(initial?.event == .initialSession)
        #expect(initial?.session == nil)

        let response = try await client.auth.verifyOTP(phone: "+14155550100", token: "123456", type: .sms)
        let request = try #require(transport.last)
        #expect(request.url.absoluteString == "https://project.supabase.co/auth/v1/verify")
        #expect(request.json == ["type": "sms", "phone": "+14155550100", "token": "123456"])

        let session = try #require(response.session)
        #expect(session.accessToken == "a1")
        #expect(session.user.phone == "14155550100")
        #expect(session.user.appMetadata["provider"] == "phone")
        #expect(client.auth.currentSession == session)
        #expect(client.auth.currentUser?.id == UUID(uuidString: "3f1c2b9e-4d5a-4c6b-8e7f-9a0b1c2d3e4f"))
        #expect(try storage.retrieve(key: "sb-project-auth-token") != nil)
        let signedIn = await events.next()
        #expect(signedIn?.event == .signedIn)
        #expect(signedIn?.session == session)
    }

    @Test func signInWithPasswordAndSignUp() async throws {
        let transport = RecordingTransport(body: sessionJSON())
        let client = makeClient(transport)
        let session = try await client.auth.signIn(email: "a@b.c", password: "pw")
        var request = try #require(transport.last)
        #expect(request.path == "/auth/v1/token")
        #expect(request.rawQuery == "grant_type=password")
        #expect(request.json == ["email": "a@b.c", "password": "pw"])
        #expect(session.expiresIn == 3600)

        let signUpUser = RecordingTransport(body: userJSON)
        let response = try await makeClient(signUpUser).auth.signUp(email: "a@b.c", password: "pw", data: ["x": 1])
        request = try #require(signUpUser.last)
        #expect(request.path == "/auth/v1/signup")
        #expect(request.json == ["email": "a@b.c", "password": "pw", "data": ["x": 1]])
        #expect(response.session == nil)
        #expect(response.user.aud == "authenticated")
    }

    @Test func refreshSessionRotatesTokens() async throws {
        let transport = RecordingTransport(body: sessionJSON(access: "a2", refresh: "r2"))
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(refresh: "r1", expiresIn: 3600))
        let session = try await client.auth.refreshSession()
        let request = try #require(transport.last)
        #expect(request.rawQuery == "grant_type=refresh_token")
        #expect(request.json == ["refresh_token": "r1"])
        #expect(request.headers["Authorization"] == "Bearer \(anonKey)")
        #expect(session.refreshToken == "r2")
        #expect(client.auth.currentSession?.accessToken == "a2")
    }

    @Test func userAndUpdateUseTheAccessToken() async throws {
        let transport = RecordingTransport(body: userJSON)
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(access: "jwt-1", expiresIn: 3600))
        var events = client.auth.authStateChanges.makeAsyncIterator()
        _ = await events.next()

        let user = try await client.auth.user()
        var request = try #require(transport.last)
        #expect(request.method == .get)
        #expect(request.path == "/auth/v1/user")
        #expect(request.headers["Authorization"] == "Bearer jwt-1")
        #expect(request.body == nil)
        #expect(user.phone == "14155550100")

        _ = try await client.auth.user(jwt: "other")
        #expect(transport.last?.headers["Authorization"] == "Bearer other")

        try await client.auth.update(user: UserAttributes(password: "new", data: ["name": "Ada"]))
        request = try #require(transport.last)
        #expect(request.method == .put)
        #expect(request.json == ["password": "new", "data": ["name": "Ada"]])
        #expect(request.headers["Authorization"] == "Bearer jwt-1")
        #expect(await events.next()?.event == .userUpdated)
    }

    @Test func signOutClearsTheSessionAndIgnoresAuthFailures() async throws {
        for status in [204, 401, 403, 404] {
            let transport = RecordingTransport { _, _ in
                status == 204
                    ? HTTPResponse(status: 204)
                    : jsonResponse(status, #"{"code":"bad_jwt","message":"invalid JWT"}"#, headers: ["X-Supabase-Api-Version": "2024-01-01"])
            }
            let client = makeClient(transport)
            try await client.auth.setSession(try makeSession(access: "jwt-1", expiresIn: 3600))
            var events = client.auth.authStateChanges.makeAsyncIterator()
            _ = await events.next()
            try await client.auth.signOut()
            let request = try #require(transport.last)
            #expect(request.method == .post)
            #expect(request.path == "/auth/v1/logout")
            #expect(request.rawQuery == "scope=global")
            #expect(request.headers["Authorization"] == "Bearer jwt-1")
            #expect(client.auth.currentSession == nil)
            #expect(await events.next()?.event == .signedOut)
        }
    }

    @Test func signOutWithoutSessionSendsNothing() async throws {
        let transport = RecordingTransport(body: "")
        try await makeClient(transport).auth.signOut()
        #expect(transport.requests.isEmpty)
    }

    @Test func sessionWhenSignedOutIsSessionMissing() async throws {
        let transport = RecordingTransport(body: "")
        await #expect(throws: AuthError.sessionMissing) {
            _ = try await makeClient(transport).auth.session
        }
    }

    @Test func fileStorageKeepsTheSessionAcrossClients() async throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("supabase-rest-\(UUID().uuidString)")
            .appendingPathComponent("session.json")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let transport = RecordingTransport(body: sessionJSON(access: "persisted"))
        try await makeClient(transport, storage: FileAuthStorage(url: url)).auth.signIn(email: "a@b.c", password: "p")

        let reopened = makeClient(transport, storage: FileAuthStorage(url: url))
        #expect(reopened.auth.currentSession?.accessToken == "persisted")
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        try await reopened.auth.signOut()
        #expect(makeClient(transport, storage: FileAuthStorage(url: url)).auth.currentSession == nil)
    }
}
