import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The Firebase session over time: refreshed through Secure Token, ended when the server
/// says the refresh token is no good.
@Suite("Firebase session")
struct FirebaseSessionTests {
    @Test("the ID token is refreshed through Secure Token; a reused refresh token ends the session")
    func refresh() async throws {
        let phone = "+15550006006"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=577215"))
        defer { Task { try? await test.backend.close() } }
        let adapters = AdapterHarness.firebaseAdapters(test.backend)
        try await adapters.authClient.sendCode(try PhoneNumber(phone))
        let before = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode("577215"))

        test.clock.advance(by: 5)
        let refreshed = try await adapters.tokens.refresh()
        #expect(refreshed.idToken != before.accessToken && refreshed.refreshToken != before.refreshToken)
        let current = try #require(await adapters.authClient.currentSession())
        #expect(current.accessToken == refreshed.idToken && current.userID == before.userID && current.phone == before.phone)
        #expect(try await adapters.userClient.profile().id == before.userID)

        // The first refresh token was rotated away: presenting it again revokes the session.
        await #expect(throws: IdentityToolkitError.self) { _ = try await adapters.identityToolkit.refresh(refreshToken: before.refreshToken) }
        await #expect(throws: IdentityToolkitError.self) { _ = try await adapters.tokens.refresh() }
        // The session dropped its tokens, so the person is signed out everywhere here, and the
        // next refused call tells the session's followers.
        #expect(await adapters.authClient.currentSession() == nil)
        var changes = await adapters.authClient.sessionChanges().makeAsyncIterator()
        #expect(await changes.next()??.userID == before.userID)
        await #expect(throws: DomainError.unauthenticated) { _ = try await adapters.userClient.profile() }
        #expect(await changes.next() == .some(nil))
    }

    @Test("live streams poll as the person, and end when they sign out")
    func streamsEndOnSignOut() async throws {
        let harness = try await AdapterHarness.start(.firebase)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let notifications = try await alice.notifications.stream()
        let profiles = try await alice.user.stream()
        _ = try await alice.user.update(ProfileUpdate(firstName: "Alice"))
        #expect(try await UserContractTests.first(on: profiles)?.firstName == "Alice")

        try await alice.auth.signOut()
        await #expect(throws: DomainError.unauthenticated) { for try await _ in notifications {} }
        await #expect(throws: DomainError.unauthenticated) { for try await _ in profiles {} }
    }
}
