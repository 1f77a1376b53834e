import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Routing by sign-in state: sign-in, onboarding for a new person, the tabs for a returning
/// one, and back to sign-in when the session ends here or elsewhere.
@MainActor
@Suite(.reportsIssues) struct AppFeatureTests {
    nonisolated static func profile(named name: String) throws -> UserProfile {
        let session = try Fixtures.session()
        return UserProfile(
            id: session.userID, firstName: name, phone: session.phone.e164, qrCodeID: UUID(uuidString: "00000000-0000-4000-8000-0000000000c1") ?? UUID())
    }

    /// A store whose session stream the test drives.
    func makeStore(profile: @escaping @Sendable () async throws -> UserProfile)
        -> (TestStore<AppFeature.State, AppFeature.Action>, AsyncStream<AuthSession?>.Continuation)
    {
        let (sessions, continuation) = AsyncStream<AuthSession?>.makeStream()
        let store = TestStore(initialState: AppFeature.State()) {
            AppFeature()
        } withDependencies: {
            $0.authClient.sessionChanges = { sessions }
            $0.userClient.profile = profile
        }
        return (store, continuation)
    }

    @Test func nobodySignedInGoesToSignIn() async {
        let (store, sessions) = makeStore { throw DomainError.unauthenticated }
        await store.send(.task)
        sessions.yield(nil)
        await store.receive(.sessionChanged(nil)) { $0.route = .signIn }
        sessions.finish()
        await store.finish()
    }

    @Test func aNewPersonIsOnboardedThenSeesTheTabs() async throws {
        let session = try Fixtures.session()
        let fresh = try Self.profile(named: "")
        let named = try Self.profile(named: "Zoë")
        let (store, sessions) = makeStore { fresh }
        await store.send(.task)
        sessions.yield(nil)
        await store.receive(.sessionChanged(nil)) { $0.route = .signIn }
        sessions.yield(session)
        await store.receive(.sessionChanged(session)) { $0.session = session }
        await store.receive(.profileLoaded(.success(fresh))) { $0.route = .onboarding }
        await store.send(.onboarding(.finished(named))) { $0.route = .main }
        await store.send(.tabSelected(.contacts)) { $0.tab = .contacts }
        // A refreshed token for the same person changes nothing on screen.
        var refreshed = session
        refreshed.accessToken = "refreshed"
        sessions.yield(refreshed)
        await store.receive(.sessionChanged(refreshed)) { $0.session = refreshed }
        sessions.finish()
        await store.finish()
    }

    @Test func aReturningPersonGoesStraightToTheTabsAndIsSentBackWhenTheSessionEndsElsewhere() async throws {
        let session = try Fixtures.session()
        let alex = try Self.profile(named: "Alex")
        let (store, sessions) = makeStore { alex }
        await store.send(.task)
        sessions.yield(session)
        await store.receive(.sessionChanged(session)) { $0.session = session }
        await store.receive(.profileLoaded(.success(alex))) { $0.route = .main }
        await store.send(.tabSelected(.profile)) { $0.tab = .profile }
        sessions.yield(nil)
        await store.receive(.sessionChanged(nil)) { $0 = AppFeature.State(route: .signIn) }
        sessions.finish()
        await store.finish()
    }

    @Test func signingOutFromProfileClearsEverything() async throws {
        let session = try Fixtures.session()
        var state = AppFeature.State(route: .main, session: session, tab: .profile)
        state.responders.contacts = [RespondersFeatureTests.maya]
        let store = TestStore(initialState: state) { AppFeature() }
        #expect(store.state.badges == [.responders: 1])
        await store.send(.profile(.signedOut)) { $0 = AppFeature.State(route: .signIn) }
        #expect(store.state.badges.isEmpty)
    }

    @Test func signingOutStopsTheQRCodeScreenAndItsBadgeGoes() async throws {
        let session = try Fixtures.session()
        var state = AppFeature.State(route: .main, session: session, tab: .contacts)
        state.contacts.receivedRoleRequests = [ContactsFeatureConsentTests.fromBen]
        let code = QRCode(id: ContactsFeatureTests.uuid(600), expiresAt: Fixtures.start.addingTimeInterval(600))
        let store = TestStore(initialState: state) {
            AppFeature()
        } withDependencies: {
            $0.contactsClient.qrCode = { code }
            $0.date = DateGenerator { Fixtures.start }
            $0.continuousClock = TestClock()
        }
        #expect(store.state.badges == [.contacts: 1])
        await store.send(.myQRCode(.task)) { $0.myQRCode.isLoading = true }
        await store.receive(.myQRCode(.loaded(.success(code)))) {
            $0.myQRCode.isLoading = false
            $0.myQRCode.code = code
        }
        // The code's expiry is waited for until the person signs out; then nothing is left running.
        await store.send(.profile(.signedOut)) { $0 = AppFeature.State(route: .signIn) }
        #expect(store.state.badges.isEmpty)
        await store.finish()
    }

    @Test func aProfileThatCannotBeReadReturnsToSignInWithTheReason() async throws {
        let session = try Fixtures.session()
        let (store, sessions) = makeStore { throw DomainError.internal("network down") }
        await store.send(.task)
        sessions.yield(session)
        await store.receive(.sessionChanged(session)) { $0.session = session }
        await store.receive(.profileLoaded(.failure(.internal("network down")))) {
            $0.route = .signIn
            $0.errorMessage = DomainError.internal("network down").message
        }
        sessions.finish()
        await store.finish()
    }

    @Test func signingInThroughTheAuthScreenRoutesWithoutWaitingForTheStream() async throws {
        let session = try Fixtures.session()
        let alex = try Self.profile(named: "Alex")
        let store = TestStore(initialState: AppFeature.State(route: .signIn)) {
            AppFeature()
        } withDependencies: {
            $0.userClient.profile = { alex }
        }
        await store.send(.auth(.verified(session))) {
            $0.session = session
            $0.auth.step = .signedIn(session)
        }
        await store.receive(.profileLoaded(.success(alex))) { $0.route = .main }
    }
}
