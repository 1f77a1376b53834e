import Foundation
import Testing

@testable import FirebaseREST

/// The session refreshes five minutes early, one refresh at a time, and ends on fatal codes.
@Suite struct SessionTests {
    let refreshReply = #"{"id_token":"NEW","refresh_token":"R2","expires_in":"3600","user_id":"u"}"#

    func tokens(expiringIn seconds: TimeInterval, from clock: TestClock) -> AuthTokens {
        AuthTokens(idToken: "OLD", refreshToken: "R1", expiresAt: clock.now + seconds, localId: "u")
    }

    @Test func freshTokenIsNotRefreshed() async throws {
        let clock = TestClock()
        let transport = RecordingTransport(body: refreshReply)
        let session = FirebaseAuthSession(
            client: IdentityToolkitClient(apiKey: "K", options: options(transport)),
            tokens: tokens(expiringIn: 301, from: clock), now: { clock.now })
        #expect(try await session.idToken() == "OLD")
        #expect(transport.requests.isEmpty)
    }

    @Test func refreshesFiveMinutesEarlyExactlyOnce() async throws {
        let clock = TestClock()
        let transport = RecordingTransport { _, _ in
            try await Task.sleep(for: .milliseconds(50))
            return response(200, #"{"id_token":"NEW","refresh_token":"R2","expires_in":"3600","user_id":"u"}"#)
        }
        let changes = LockedValue<[AuthTokens?]>([])
        let session = FirebaseAuthSession(
            client: IdentityToolkitClient(apiKey: "K", options: options(transport)),
            tokens: tokens(expiringIn: 299, from: clock), now: { clock.now },
            onChange: { tokens in changes.withValue { $0.append(tokens) } })
        let results = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<10 { group.addTask { try await session.idToken() } }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: "NEW", count: 10))
        #expect(transport.requests.count == 1)
        #expect(transport.last?.bodyText == "grant_type=refresh_token&refresh_token=R1")
        let current = await session.currentTokens
        #expect(current?.refreshToken == "R2")
        #expect(current?.expiresAt == clock.now + 3600)
        #expect(changes.value.count == 1)
    }

    @Test func fatalRefreshErrorSignsOut() async throws {
        let clock = TestClock()
        let transport = RecordingTransport(status: 400, body: #"{"error":{"code":400,"message":"INVALID_REFRESH_TOKEN"}}"#)
        let session = FirebaseAuthSession(
            client: IdentityToolkitClient(apiKey: "K", options: options(transport)),
            tokens: tokens(expiringIn: 10, from: clock), now: { clock.now })
        await #expect(throws: IdentityToolkitError.self) { _ = try await session.idToken() }
        #expect(await session.currentTokens == nil)
        #expect(try await session.idToken() == nil)
        await #expect(throws: FirebaseAuthSession.SessionError.signedOut) { _ = try await session.validTokens() }
    }

    @Test func delegatedRefreshesAskTheOwnerAndNeverTheServer() async throws {
        let clock = TestClock()
        let transport = RecordingTransport(body: refreshReply)
        let session = FirebaseAuthSession(
            client: IdentityToolkitClient(apiKey: "K", options: options(transport)),
            tokens: tokens(expiringIn: 299, from: clock), now: { clock.now })
        let asked = LockedValue<[String]>([])
        let ownerSignedOut = LockedValue(false)
        let expiry = clock.now + 3600
        session.delegateRefreshes { refreshToken in
            asked.withValue { $0.append(refreshToken) }
            if ownerSignedOut.value { throw FirebaseAuthSession.SessionError.signedOut }
            return AuthTokens(idToken: "OWNERS", refreshToken: "R-OWNER", expiresAt: expiry, localId: "u")
        }
        #expect(try await session.idToken() == "OWNERS")
        #expect(asked.value == ["R1"])
        #expect(transport.requests.isEmpty, "the token endpoint is never called by a delegating session")
        #expect(await session.currentTokens?.refreshToken == "R-OWNER")

        // The owner signed out: so does this session.
        clock.advance(3600 - 200)
        ownerSignedOut.withValue { $0 = true }
        #expect(try await session.idToken() == nil)
        #expect(await session.currentTokens == nil)

        // Without a handler the session refreshes for itself again.
        session.delegateRefreshes(to: nil)
        await session.replace(with: tokens(expiringIn: 10, from: clock))
        #expect(try await session.idToken() == "NEW")
        #expect(transport.requests.count == 1)
    }

    @Test func transientFailureKeepsUnexpiredToken() async throws {
        let clock = TestClock()
        let session = FirebaseAuthSession(
            client: IdentityToolkitClient(apiKey: "K", options: options(FailingTransport())),
            tokens: tokens(expiringIn: 60, from: clock), now: { clock.now })
        #expect(try await session.idToken() == "OLD")
        clock.advance(120)
        await #expect(throws: FirebaseTransportError.self) { _ = try await session.idToken() }
        #expect(await session.currentTokens != nil)
    }

    @Test func signInAndSignOut() async throws {
        let clock = TestClock()
        let session = FirebaseAuthSession(
            client: IdentityToolkitClient(apiKey: "K", options: options(RecordingTransport())), now: { clock.now })
        #expect(try await session.idToken() == nil)
        await session.signIn(
            with: SignInResponse(idToken: "I", refreshToken: "R", expiresIn: "3600", localId: "u"))
        #expect(try await session.idToken() == "I")
        await session.signOut()
        #expect(try await session.idToken() == nil)
    }
}
