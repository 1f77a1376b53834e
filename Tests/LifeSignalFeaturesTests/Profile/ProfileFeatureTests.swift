import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The person the Profile tests look at, and a store for them.
enum ProfileFixtures {
    static let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a002") ?? UUID())
    static let qrCode = UUID(uuidString: "00000000-0000-4000-8000-00000000b002") ?? UUID()
    static let alex = UserProfile(
        id: me, firstName: "Alex", lastName: "Morgan", emergencyNote: "Allergic to penicillin", phone: "+15550100009",
        qrCodeID: qrCode)

    static func alex(_ change: (inout UserProfile) -> Void) -> UserProfile {
        var profile = alex
        change(&profile)
        return profile
    }

    /// A store on `state` (by default, Alex's profile shown) with only `dependencies` overridden.
    @MainActor static func store(
        _ state: ProfileFeature.State = .init(profile: alex),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStore<ProfileFeature.State, ProfileFeature.Action> {
        TestStore(initialState: state) {
            ProfileFeature()
        } withDependencies: {
            dependencies(&$0)
        }
    }
}

/// The Profile screen, part one: the live profile, editing (only changed fields sent, a failed
/// save kept) and the avatar. Endpoints a test does not override fail when called, so each test
/// also proves which requests are (not) made.
@MainActor
@Suite(.reportsIssues) struct ProfileFeatureTests {
    nonisolated static let alex = ProfileFixtures.alex
    nonisolated static func alex(_ change: (inout UserProfile) -> Void) -> UserProfile { ProfileFixtures.alex(change) }

    func makeStore(
        _ state: ProfileFeature.State = .init(profile: ProfileFixtures.alex),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStore<ProfileFeature.State, ProfileFeature.Action> {
        ProfileFixtures.store(state, dependencies)
    }

    // MARK: Loading and following

    @Test func taskLoadsThenFollowsTheStreamUntilDisappear() async {
        let changes = AsyncThrowingStream<UserProfile, any Error>.makeStream()
        let store = makeStore(.init()) {
            $0.userClient.stream = { changes.stream }
            $0.userClient.profile = { Self.alex }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(Self.alex))) {
            $0.isLoading = false
            $0.profile = Self.alex
        }
        let checkedIn = Self.alex { $0.lastCheckIn = Fixtures.start }
        changes.continuation.yield(checkedIn)
        await store.receive(.streamed(checkedIn)) { $0.profile = checkedIn }
        await store.send(.onDisappear)
        // Nothing streamed after the screen went away reaches it.
        changes.continuation.yield(Self.alex)
        await store.finish()
    }

    @Test func aStreamedProfileWaitsWhileEditingAndShowsOnCancel() async {
        let changes = AsyncThrowingStream<UserProfile, any Error>.makeStream()
        let store = makeStore(.init()) {
            $0.userClient.stream = { changes.stream }
            $0.userClient.profile = { Self.alex }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(Self.alex))) {
            $0.isLoading = false
            $0.profile = Self.alex
        }
        await store.send(.editTapped) { $0.draft = ProfileFeature.Draft(Self.alex) }
        let renamed = Self.alex { $0.firstName = "Alexandra" }
        changes.continuation.yield(renamed)
        await store.receive(.streamed(renamed)) { $0.pendingProfile = renamed }
        await store.send(.cancelEditTapped) {
            $0.draft = nil
            $0.pendingProfile = nil
            $0.profile = renamed
        }
        await store.send(.onDisappear)
        await store.finish()
    }

    @Test func loadAndStreamFailuresAreShown() async {
        let changes = AsyncThrowingStream<UserProfile, any Error>.makeStream()
        let store = makeStore(.init()) {
            $0.userClient.stream = { changes.stream }
            $0.userClient.profile = { throw DomainError.unauthenticated }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.failure(.unauthenticated))) {
            $0.isLoading = false
            $0.errorMessage = "Sign in first"
        }
        changes.continuation.finish(throwing: DomainError.internal("socket closed"))
        await store.receive(.streamFailed(.internal("socket closed"))) { $0.errorMessage = "Internal error: socket closed" }
        await store.finish()

        // A stream that cannot start still lets the profile load.
        let other = makeStore(.init()) {
            $0.userClient.stream = { throw DomainError.unauthenticated }
            $0.userClient.profile = { Self.alex }
        }
        await other.send(.task) { $0.isLoading = true }
        await other.receive(.loaded(.success(Self.alex))) {
            $0.isLoading = false
            $0.profile = Self.alex
        }
        await other.receive(.streamFailed(.unauthenticated)) { $0.errorMessage = "Sign in first" }
        await other.finish()
    }

    // MARK: Editing

    @Test func saveSendsOnlyTheChangedFieldsTrimmed() async {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let saved = Self.alex {
            $0.lastName = "Morgan-Lee"
            $0.notificationsEnabled = false
        }
        let store = makeStore {
            $0.userClient.update = { update in
                updates.withValue { $0.append(update) }
                return saved
            }
        }
        await store.send(.editTapped) { $0.draft = ProfileFeature.Draft(Self.alex) }
        var draft = ProfileFeature.Draft(Self.alex)
        draft.firstName = " Alex "
        draft.lastName = "Morgan-Lee "
        draft.notificationsEnabled = false
        await store.send(.draftChanged(draft)) { $0.draft = draft }
        await store.send(.saveTapped) { $0.activity = .saving }
        await store.receive(.saved(.success(saved))) {
            $0.activity = nil
            $0.draft = nil
            $0.profile = saved
        }
        #expect(updates.value == [ProfileUpdate(lastName: "Morgan-Lee", notificationsEnabled: false)])
        // Saving an untouched form sends nothing and closes it.
        await store.send(.editTapped) { $0.draft = ProfileFeature.Draft(saved) }
        await store.send(.saveTapped) { $0.draft = nil }
        #expect(updates.value.count == 1)
        await store.finish()
    }

    @Test func aDraftThatBreaksTheRulesIsExplainedWithoutARequest() async {
        let store = makeStore()
        await store.send(.editTapped) { $0.draft = ProfileFeature.Draft(Self.alex) }
        let cases: [(edit: (inout ProfileFeature.Draft) -> Void, message: String)] = [
            ({ $0.firstName = "  " }, "Enter your first name"),
            ({ $0.firstName = "A" }, "First name must be 2 to 50 characters long (this one has 1)"),
            ({ $0.lastName = "" }, "A last name can be changed but not removed"),
            ({ $0.lastName = "M0rgan" }, "Last name may contain only letters, spaces, hyphens and apostrophes"),
            (
                { $0.emergencyNote = String(repeating: "n", count: 1001) },
                "The emergency note can be at most 1000 characters (this one has 1001)"
            ),
        ]
        for (edit, message) in cases {
            var draft = ProfileFeature.Draft(Self.alex)
            edit(&draft)
            await store.send(.draftChanged(draft)) {
                $0.draft = draft
                $0.errorMessage = nil
            }
            await store.send(.saveTapped) { $0.errorMessage = message }
        }
        await store.send(.cancelEditTapped) {
            $0.draft = nil
            $0.errorMessage = nil
        }
        await store.finish()
    }

    @Test func aFailedSaveKeepsTheDraftAndSaveRetries() async {
        let attempts = LockIsolated(0)
        let saved = Self.alex { $0.emergencyNote = "Asthma" }
        let store = makeStore {
            $0.userClient.update = { update in
                #expect(update == ProfileUpdate(emergencyNote: "Asthma"))
                let attempt = attempts.withValue {
                    $0 += 1
                    return $0
                }
                if attempt == 1 { throw DomainError.rateLimited(retryAfter: 2) }
                return saved
            }
        }
        await store.send(.editTapped) { $0.draft = ProfileFeature.Draft(Self.alex) }
        var draft = ProfileFeature.Draft(Self.alex)
        draft.emergencyNote = "Asthma"
        await store.send(.draftChanged(draft)) { $0.draft = draft }
        await store.send(.saveTapped) { $0.activity = .saving }
        await store.receive(.saved(.failure(.rateLimited(retryAfter: 2)))) {
            $0.activity = nil
            $0.errorMessage = "Too many requests; retry in 2 s"
        }
        await store.send(.saveTapped) {
            $0.activity = .saving
            $0.errorMessage = nil
        }
        await store.receive(.saved(.success(saved))) {
            $0.activity = nil
            $0.draft = nil
            $0.profile = saved
        }
        #expect(attempts.value == 2)
        await store.finish()
    }

    // MARK: Avatar

    @Test func anAvatarIsCheckedBeforeUploadAndCanBeRemoved() async {
        let image = Data([0x89, 0x50, 0x4E, 0x47])
        let withAvatar = Self.alex { $0.avatarURL = "https://example.com/avatars/me/avatar" }
        let store = makeStore {
            $0.userClient.uploadAvatar = { data, type in
                #expect(data == image && type == "image/png")
                return withAvatar
            }
            $0.userClient.removeAvatar = { Self.alex }
        }
        // Nothing to remove yet.
        await store.send(.removeAvatarTapped)
        await store.send(.avatarPicked(image, contentType: "application/pdf")) {
            $0.errorMessage = "An avatar must be an image, not application/pdf"
        }
        await store.send(.avatarPicked(Data(), contentType: "image/png")) {
            $0.errorMessage = "The avatar image is empty"
        }
        let huge = Data(count: UserClient.maximumAvatarBytes + 1)
        await store.send(.avatarPicked(huge, contentType: "image/jpeg")) {
            $0.errorMessage = "An avatar must be at most 5 MB; this one is 5242881 bytes"
        }
        await store.send(.avatarPicked(image, contentType: "image/png")) {
            $0.activity = .updatingAvatar
            $0.errorMessage = nil
        }
        await store.receive(.avatarUpdated(.success(withAvatar))) {
            $0.activity = nil
            $0.profile = withAvatar
        }
        await store.send(.removeAvatarTapped) { $0.activity = .updatingAvatar }
        await store.receive(.avatarUpdated(.success(Self.alex))) {
            $0.activity = nil
            $0.profile = Self.alex
        }
        await store.finish()
    }

    @Test func aFailedUploadIsShown() async {
        let store = makeStore {
            $0.userClient.uploadAvatar = { _, _ in throw DomainError.forbidden("Storage is full") }
        }
        await store.send(.avatarPicked(Data([1]), contentType: "image/png")) { $0.activity = .updatingAvatar }
        await store.receive(.avatarUpdated(.failure(.forbidden("Storage is full")))) {
            $0.activity = nil
            $0.errorMessage = "Storage is full"
        }
        await store.finish()
    }
}
