import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The Profile screen, part two: phone change, QR reset, sign out and account deletion, each
/// behind its checks and confirmations. Endpoints a test does not override fail when called.
@MainActor
@Suite(.reportsIssues) struct ProfileFeatureAccountTests {
    nonisolated static let alex = ProfileFixtures.alex
    nonisolated static func alex(_ change: (inout UserProfile) -> Void) -> UserProfile { ProfileFixtures.alex(change) }

    func makeStore(
        _ state: ProfileFeature.State = .init(profile: ProfileFixtures.alex),
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStore<ProfileFeature.State, ProfileFeature.Action> {
        ProfileFixtures.store(state, dependencies)
    }

    // MARK: Phone

    @Test func aNewPhoneIsReadBackThenProvenByTheCodeSentToIt() async throws {
        let requested = LockIsolated<[PhoneNumber]>([])
        let confirmed = LockIsolated<[String]>([])
        let newPhone = try PhoneNumber("+15550002222")
        let moved = Self.alex { $0.phone = "+15550002222" }
        let store = makeStore {
            $0.authClient.requestPhoneChange = { phone in requested.withValue { $0.append(phone) } }
            $0.authClient.confirmPhoneChange = { phone, code in
                confirmed.withValue { $0.append("\(phone.e164) \(code.value)") }
                guard code.value == "123456" else { throw DomainError.invalidOTP }
                return try Fixtures.session()
            }
            $0.userClient.profile = { moved }
        }
        await store.send(.changePhoneTapped) { $0.phoneChange = .init(text: "+15550100009") }
        await store.send(.phoneTextChanged("555-2222")) { $0.phoneChange?.text = "555-2222" }
        await store.send(.phoneSubmitted) { $0.errorMessage = DomainError.invalidPhone("555-2222").message }
        await store.send(.phoneTextChanged("+1 (555) 000-2222")) {
            $0.phoneChange?.text = "+1 (555) 000-2222"
            $0.errorMessage = nil
        }
        await store.send(.phoneSubmitted) { $0.phoneChange?.confirming = newPhone }
        // Typing again drops the number waiting for confirmation.
        await store.send(.phoneTextChanged("+1 555 000 2222")) { $0.phoneChange = .init(text: "+1 555 000 2222") }
        await store.send(.phoneChangeConfirmed)
        await store.send(.phoneSubmitted) { $0.phoneChange?.confirming = newPhone }
        await store.send(.phoneChangeConfirmed) { $0.activity = .changingPhone }
        await store.receive(.phoneCodeSent(.success(newPhone))) {
            $0.activity = nil
            $0.phoneChange?.codeSentTo = newPhone
        }
        #expect(requested.value == [newPhone] && store.state.profile?.phone == "+15550100009", "nothing moves before the code")
        // With a code on its way the number can no longer be edited.
        await store.send(.phoneTextChanged("+15550009999"))
        await store.send(.phoneCodeChanged("12345")) { $0.phoneChange?.codeText = "12345" }
        // Five digits are refused before any request.
        await store.send(.phoneCodeSubmitted) { $0.errorMessage = Self.codeShapeMessage("12345") }
        await store.send(.phoneCodeChanged("654321")) {
            $0.phoneChange?.codeText = "654321"
            $0.errorMessage = nil
        }
        await store.send(.phoneCodeSubmitted) { $0.activity = .changingPhone }
        await store.receive(.phoneChanged(.failure(.invalidOTP))) {
            $0.activity = nil
            $0.errorMessage = DomainError.invalidOTP.message
            $0.phoneChange?.codeText = ""
        }
        await store.send(.phoneCodeChanged("123456")) {
            $0.phoneChange?.codeText = "123456"
            $0.errorMessage = nil
        }
        await store.send(.phoneCodeSubmitted) { $0.activity = .changingPhone }
        await store.receive(.phoneChanged(.success(moved))) {
            $0.activity = nil
            $0.phoneChange = nil
            $0.profile = moved
        }
        #expect(confirmed.value == ["+15550002222 654321", "+15550002222 123456"])
        await store.finish()
    }

    /// What ``OneTimeCode`` says of a code of the wrong shape.
    nonisolated static func codeShapeMessage(_ text: String) -> String? {
        do {
            _ = try OneTimeCode(text)
            return nil
        } catch { return error.message }
    }

    @Test func anExpiredCodeStartsAgainFromTheNumber() async throws {
        let phone = try PhoneNumber("+15550002222")
        let state = ProfileFeature.State(profile: ProfileFixtures.alex)
        let store = makeStore(state) {
            $0.authClient.confirmPhoneChange = { _, _ in throw DomainError.otpExpired }
        }
        await store.send(.changePhoneTapped) { $0.phoneChange = .init(text: "+15550100009") }
        await store.send(.phoneTextChanged("+15550002222")) { $0.phoneChange?.text = "+15550002222" }
        await store.send(.phoneSubmitted) { $0.phoneChange?.confirming = phone }
        await store.send(.phoneCodeSent(.success(phone))) { $0.phoneChange?.codeSentTo = phone }
        await store.send(.phoneCodeChanged("111111")) { $0.phoneChange?.codeText = "111111" }
        await store.send(.phoneCodeSubmitted) { $0.activity = .changingPhone }
        await store.receive(.phoneChanged(.failure(.otpExpired))) {
            $0.activity = nil
            $0.errorMessage = DomainError.otpExpired.message
            $0.phoneChange = .init(text: "+15550002222")
        }
        await store.finish()
    }

    @Test func theSameNumberClosesTheDialogAndCancelSendsNothing() async {
        let store = makeStore()
        await store.send(.changePhoneTapped) { $0.phoneChange = .init(text: "+15550100009") }
        await store.send(.phoneTextChanged("+1 555 010 0009")) { $0.phoneChange?.text = "+1 555 010 0009" }
        await store.send(.phoneSubmitted) { $0.phoneChange = nil }
        await store.send(.changePhoneTapped) { $0.phoneChange = .init(text: "+15550100009") }
        await store.send(.phoneTextChanged("+15550003333")) { $0.phoneChange?.text = "+15550003333" }
        await store.send(.phoneChangeCancelled) { $0.phoneChange = nil }
        await store.send(.phoneChangeConfirmed)
        await store.finish()
    }

    @Test func aTakenPhoneGoesBackToTheTextField() async throws {
        let store = makeStore {
            $0.authClient.requestPhoneChange = { _ in throw DomainError.alreadyExists("An account with the phone +15550004444") }
        }
        let phone = try PhoneNumber("+15550004444")
        await store.send(.changePhoneTapped) { $0.phoneChange = .init(text: "+15550100009") }
        await store.send(.phoneTextChanged("+15550004444")) { $0.phoneChange?.text = "+15550004444" }
        await store.send(.phoneSubmitted) { $0.phoneChange?.confirming = phone }
        await store.send(.phoneChangeConfirmed) { $0.activity = .changingPhone }
        await store.receive(.phoneCodeSent(.failure(.alreadyExists("An account with the phone +15550004444")))) {
            $0.activity = nil
            $0.phoneChange?.confirming = nil
            $0.errorMessage = DomainError.alreadyExists("An account with the phone +15550004444").message
        }
        #expect(store.state.phoneChange?.text == "+15550004444")
        await store.finish()
    }

    // MARK: QR code

    @Test func resettingTheQRCodeAsksFirst() async {
        let fresh = UUID(uuidString: "00000000-0000-4000-8000-00000000b003") ?? UUID()
        let resets = LockIsolated(0)
        let store = makeStore {
            $0.userClient.resetQRCode = {
                resets.withValue { $0 += 1 }
                return fresh
            }
        }
        await store.send(.resetQRCodeConfirmed)
        await store.send(.resetQRCodeTapped) { $0.isConfirmingQRCodeReset = true }
        await store.send(.resetQRCodeCancelled) { $0.isConfirmingQRCodeReset = false }
        #expect(resets.value == 0)
        await store.send(.resetQRCodeTapped) { $0.isConfirmingQRCodeReset = true }
        await store.send(.resetQRCodeConfirmed) {
            $0.isConfirmingQRCodeReset = false
            $0.activity = .resettingQRCode
        }
        await store.receive(.qrCodeReset(.success(fresh))) {
            $0.activity = nil
            $0.profile?.qrCodeID = fresh
        }
        #expect(resets.value == 1)
        await store.finish()
    }

    @Test func aFailedQRCodeResetIsShown() async {
        let store = makeStore(.init(profile: Self.alex, isConfirmingQRCodeReset: true)) {
            $0.userClient.resetQRCode = { throw DomainError.unauthenticated }
        }
        await store.send(.resetQRCodeConfirmed) {
            $0.isConfirmingQRCodeReset = false
            $0.activity = .resettingQRCode
        }
        await store.receive(.qrCodeReset(.failure(.unauthenticated))) {
            $0.activity = nil
            $0.errorMessage = "Sign in first"
        }
        await store.finish()
    }

    // MARK: Sign out and delete

    @Test func signOutClearsTheScreenStopsTheStreamAndTellsTheParent() async {
        let changes = AsyncThrowingStream<UserProfile, any Error>.makeStream()
        let store = makeStore(.init()) {
            $0.userClient.stream = { changes.stream }
            $0.userClient.profile = { Self.alex }
            $0.authClient.signOut = {}
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(Self.alex))) {
            $0.isLoading = false
            $0.profile = Self.alex
        }
        await store.send(.signOutTapped) { $0.activity = .signingOut }
        await store.receive(.signedOut) { $0 = ProfileFeature.State() }
        // The stream was cancelled by `signedOut`, not by `onDisappear`: finish finds nothing running.
        await store.finish()
    }

    @Test func aFailedSignOutKeepsThePersonSignedIn() async {
        let store = makeStore {
            $0.authClient.signOut = { throw URLError(.timedOut) }
        }
        await store.send(.signOutTapped) { $0.activity = .signingOut }
        await store.receive(.signOutFailed(DomainError(URLError(.timedOut)))) {
            $0.activity = nil
            $0.errorMessage = DomainError(URLError(.timedOut)).message
        }
        await store.finish()
    }

    @Test func deletingTheAccountNeedsTheWordTyped() async {
        let deletions = LockIsolated(0)
        let store = makeStore {
            $0.authClient.deleteAccount = { deletions.withValue { $0 += 1 } }
        }
        await store.send(.deleteAccountConfirmed)
        await store.send(.deleteAccountTapped) { $0.deleteConfirmationText = "" }
        #expect(store.state.canConfirmDelete == false)
        await store.send(.deleteAccountConfirmed) {
            $0.errorMessage = "Type DELETE to confirm that the account should be deleted"
        }
        await store.send(.deleteConfirmationChanged("delete")) {
            $0.deleteConfirmationText = "delete"
            $0.errorMessage = nil
        }
        await store.send(.deleteAccountConfirmed) {
            $0.errorMessage = "Type DELETE to confirm that the account should be deleted"
        }
        await store.send(.deleteAccountCancelled) {
            $0.deleteConfirmationText = nil
            $0.errorMessage = nil
        }
        // Typing outside the dialog does nothing.
        await store.send(.deleteConfirmationChanged("DELETE"))
        #expect(deletions.value == 0)
        await store.send(.deleteAccountTapped) { $0.deleteConfirmationText = "" }
        await store.send(.deleteConfirmationChanged("DELETE ")) { $0.deleteConfirmationText = "DELETE " }
        #expect(store.state.canConfirmDelete)
        await store.send(.deleteAccountConfirmed) {
            $0.deleteConfirmationText = nil
            $0.activity = .deletingAccount
        }
        await store.receive(.signedOut) { $0 = ProfileFeature.State() }
        #expect(deletions.value == 1)
        await store.finish()
    }

    @Test func aFailedDeletionIsShownAndNothingIsCleared() async {
        let store = makeStore(.init(profile: Self.alex, deleteConfirmationText: "DELETE")) {
            $0.authClient.deleteAccount = { throw DomainError.failedPrecondition("Answer your open alerts first") }
        }
        await store.send(.deleteAccountConfirmed) {
            $0.deleteConfirmationText = nil
            $0.activity = .deletingAccount
        }
        await store.receive(.deleteAccountFailed(.failedPrecondition("Answer your open alerts first"))) {
            $0.activity = nil
            $0.errorMessage = "Answer your open alerts first"
        }
        await store.finish()
    }

    @Test func oneRequestAtATime() async {
        let network = TestClock()
        let store = makeStore {
            $0.authClient.signOut = { try await network.sleep(for: .seconds(1)) }
        }
        await store.send(.signOutTapped) { $0.activity = .signingOut }
        await store.send(.signOutTapped)
        await store.send(.avatarPicked(Data([1]), contentType: "image/png"))
        await store.send(.deleteAccountTapped)
        await store.send(.editTapped) { $0.draft = ProfileFeature.Draft(Self.alex) }
        await store.send(.saveTapped)
        await network.waitForSleepers()
        await network.advance(by: .seconds(1))
        await store.receive(.signedOut) { $0 = ProfileFeature.State() }
        await store.finish()
    }
}
