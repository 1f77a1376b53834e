import Foundation
import Testing

@testable import SupabaseREST

/// `auth.session`: fresh sessions are used as is, expiring ones refreshed exactly once.
@Suite struct SessionRefreshTests {
    @Test func freshSessionIsNotRefreshed() async throws {
        let transport = RecordingTransport(body: "")
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(access: "fresh", expiresIn: 120))
        #expect(try await client.auth.session.accessToken == "fresh")
        #expect(transport.requests.isEmpty)
    }

    @Test func delegatedRefreshesTakeTheOwnersSessionAndNeverCallGoTrue() async throws {
        let transport = RecordingTransport { request, _ in jsonResponse(200, "[]") }
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(access: "old", refresh: "r1", expiresIn: 30))
        let asked = LockedValue<[String]>([])
        let ownerSignedOut = LockedValue(false)
        client.auth.delegateRefreshes { refreshToken in
            asked.withValue { $0.append(refreshToken) }
            if ownerSignedOut.value { throw AuthError.sessionMissing }
            return try makeSession(access: "owners", refresh: "r-owner", expiresIn: 3600)
        }
        var events = client.auth.authStateChanges.makeAsyncIterator()
        _ = await events.next()

        try await client.from("t").select().execute()
        #expect(asked.value == ["r1"])
        #expect(transport.requests.map(\.path) == ["/rest/v1/t"], "no request to /auth/v1/token")
        #expect(transport.requests.first?.headers["Authorization"] == "Bearer owners")
        let refreshed = await events.next()
        #expect(refreshed?.event == .tokenRefreshed && refreshed?.session?.accessToken == "owners")

        // The owner signed out: the next refresh signs out here too.
        try await client.auth.setSession(try makeSession(access: "old", refresh: "r-owner", expiresIn: 30))
        ownerSignedOut.withValue { $0 = true }
        await #expect(throws: AuthError.sessionMissing) { _ = try await client.auth.session }
        #expect(client.auth.currentSession == nil)
        #expect(!transport.requests.contains { $0.path == "/auth/v1/token" })
    }

    @Test func sessionExpiringWithinAMinuteIsRefreshedOnceUnderConcurrency() async throws {
        let transport = RecordingTransport { request, _ in
            if request.path == "/auth/v1/token" {
                try await Task.sleep(for: .milliseconds(150))
                return jsonResponse(200, sessionJSON(access: "refreshed", refresh: "r2"))
            }
            return jsonResponse(200, "[]")
        }
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(access: "old", refresh: "r1", expiresIn: 30))
        var events = client.auth.authStateChanges.makeAsyncIterator()
        _ = await events.next()

        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<40 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        return try await client.auth.session.accessToken
                    }
                    // PostgREST requests obtain their bearer token the same way.
                    try await client.from("t").select().execute()
                    return "refreshed"
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }

        #expect(tokens.count == 40)
        #expect(Set(tokens) == ["refreshed"])
        let refreshes = transport.requests.filter { $0.path == "/auth/v1/token" }
        #expect(refreshes.count == 1)
        #expect(refreshes.first?.json == ["refresh_token": "r1"])
        let reads = transport.requests.filter { $0.path == "/rest/v1/t" }
        #expect(reads.count == 20)
        #expect(reads.allSatisfy { $0.headers["Authorization"] == "Bearer refreshed" })
        let refreshed = await events.next()
        #expect(refreshed?.event == .tokenRefreshed)
        #expect(refreshed?.session?.accessToken == "refreshed")
        #expect(client.auth.currentSession?.refreshToken == "r2")

        // The next caller finds a fresh session: no further refresh.
        #expect(try await client.auth.session.accessToken == "refreshed")
        #expect(transport.requests.filter { $0.path == "/auth/v1/token" }.count == 1)
    }

    @Test func signOutDuringRefreshDoesNotResurrectTheSession() async throws {
        let transport = RecordingTransport { request, _ in
            if request.path == "/auth/v1/token" {
                try await Task.sleep(for: .milliseconds(200))
                return jsonResponse(200, sessionJSON(access: "late"))
            }
            return HTTPResponse(status: 204)
        }
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(expiresIn: 5))
        let refresh = Task { try await client.auth.session }
        try await Task.sleep(for: .milliseconds(50))
        try await client.auth.signOut()
        _ = try? await refresh.value
        #expect(client.auth.currentSession == nil)
    }
}
