import Clocks
import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Onboarding step by step: each step's checks (the server's limits, worded for the person),
/// back and next, the interval/reminder pairing, and saving with a retry after either request
/// fails. Endpoints a test does not override fail when called, so a test that overrides none
/// also proves nothing was sent.
@MainActor
@Suite(.reportsIssues) struct OnboardingFeatureTests {
    nonisolated static let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001") ?? UUID())
    nonisolated static let qrCode = UUID(uuidString: "00000000-0000-4000-8000-00000000b001") ?? UUID()

    /// The profile as `update` returns it: names and note saved, settings still the defaults.
    nonisolated static func saved(_ update: ProfileUpdate, lastCheckIn: Date? = nil) -> UserProfile {
        UserProfile(
            id: me, firstName: update.firstName ?? "", lastName: update.lastName ?? "",
            emergencyNote: update.emergencyNote ?? "", phone: "+15550001111", lastCheckIn: lastCheckIn,
            deadline: lastCheckIn?.addingTimeInterval(CheckInInterval.default.seconds), qrCodeID: qrCode)
    }

    /// A store whose clients record what they were sent and answer as the server would.
    func makeStore(
        _ state: OnboardingFeature.State = .init(),
        updates: LockIsolated<[ProfileUpdate]>,
        settings: LockIsolated<[CheckInSettings]>,
        lastCheckIn: Date? = nil,
        _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
    ) -> TestStore<OnboardingFeature.State, OnboardingFeature.Action> {
        TestStore(initialState: state) {
            OnboardingFeature()
        } withDependencies: {
            $0.userClient.update = { update in
                updates.withValue { $0.append(update) }
                return Self.saved(update, lastCheckIn: lastCheckIn)
            }
            $0.checkInClient.updateSettings = { interval, lead in
                let stored = CheckInSettings(interval: interval ?? .default, reminderLead: lead ?? .default)
                settings.withValue { $0.append(stored) }
                return stored
            }
            dependencies(&$0)
        }
    }

    @Test func everyStepThenFinishSavesTrimmedValuesAndSettingsThenTellsTheParent() async throws {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let settings = LockIsolated<[CheckInSettings]>([])
        let store = makeStore(updates: updates, settings: settings, lastCheckIn: Fixtures.start)
        #expect(store.state.isLastStep == false)
        await store.send(.firstNameChanged("  Zoë ")) { $0.firstName = "  Zoë " }
        await store.send(.lastNameChanged("O’Neil-Smith\n")) { $0.lastName = "O’Neil-Smith\n" }
        await store.send(.nextTapped) { $0.step = .note }
        await store.send(.emergencyNoteChanged(" Diabetic; insulin in the fridge. ")) {
            $0.emergencyNote = " Diabetic; insulin in the fridge. "
        }
        #expect(store.state.noteCharactersLeft == 1000 - 32)
        await store.send(.nextTapped) { $0.step = .interval }
        let twelveHours = try CheckInInterval.hours(12)
        await store.send(.intervalSelected(twelveHours)) { $0.interval = twelveHours }
        await store.send(.nextTapped) { $0.step = .reminder }
        #expect(store.state.isLastStep)
        await store.send(.reminderLeadSelected(.twoHours)) { $0.reminderLead = .twoHours }
        await store.send(.nextTapped) { $0.isSaving = true }
        var expected = Self.saved(
            ProfileUpdate(firstName: "Zoë", lastName: "O’Neil-Smith", emergencyNote: "Diabetic; insulin in the fridge."),
            lastCheckIn: Fixtures.start)
        expected.checkInIntervalSeconds = 12 * 3600
        expected.reminderLead = .twoHours
        // The deadline moves to last check-in + the new interval, as the server moves it.
        expected.deadline = Fixtures.start.addingTimeInterval(12 * 3600)
        await store.receive(.saved(.success(expected))) { $0.isSaving = false }
        await store.receive(.finished(expected))
        #expect(
            updates.value == [
                ProfileUpdate(firstName: "Zoë", lastName: "O’Neil-Smith", emergencyNote: "Diabetic; insulin in the fridge.")
            ])
        #expect(settings.value == [CheckInSettings(interval: twelveHours, reminderLead: .twoHours)])
        await store.finish()
    }

    @Test func namesAreCheckedAgainstTheServersLimitsAndTheLastNameIsOptional() async {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let settings = LockIsolated<[CheckInSettings]>([])
        let store = makeStore(updates: updates, settings: settings)
        await store.send(.nextTapped) { $0.errorMessage = "Enter your first name" }
        await store.send(.firstNameChanged("   ")) {
            $0.firstName = "   "
            $0.errorMessage = nil
        }
        await store.send(.nextTapped) { $0.errorMessage = "Enter your first name" }
        await store.send(.firstNameChanged(" A ")) {
            $0.firstName = " A "
            $0.errorMessage = nil
        }
        await store.send(.nextTapped) { $0.errorMessage = "First name must be 2 to 50 characters long (this one has 1)" }
        let long = String(repeating: "a", count: 51)
        await store.send(.firstNameChanged(long)) {
            $0.firstName = long
            $0.errorMessage = nil
        }
        await store.send(.nextTapped) { $0.errorMessage = "First name must be 2 to 50 characters long (this one has 51)" }
        await store.send(.firstNameChanged("R2-D2")) {
            $0.firstName = "R2-D2"
            $0.errorMessage = nil
        }
        await store.send(.nextTapped) {
            $0.errorMessage = "First name may contain only letters, spaces, hyphens and apostrophes"
        }
        await store.send(.firstNameChanged("Ann")) {
            $0.firstName = "Ann"
            $0.errorMessage = nil
        }
        await store.send(.lastNameChanged("B")) { $0.lastName = "B" }
        await store.send(.nextTapped) { $0.errorMessage = "Last name must be 2 to 50 characters long (this one has 1)" }
        await store.send(.lastNameChanged("Lee!")) {
            $0.lastName = "Lee!"
            $0.errorMessage = nil
        }
        await store.send(.nextTapped) {
            $0.errorMessage = "Last name may contain only letters, spaces, hyphens and apostrophes"
        }
        await store.send(.lastNameChanged("  ")) {
            $0.lastName = "  "
            $0.errorMessage = nil
        }
        await store.send(.nextTapped) { $0.step = .note }
        #expect(updates.value.isEmpty && settings.value.isEmpty)
        await store.finish()
    }

    @Test func theNoteIsOptionalUpToAThousandCharactersAndBackKeepsEverything() async {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let settings = LockIsolated<[CheckInSettings]>([])
        let store = makeStore(.init(step: .note, firstName: "Ann"), updates: updates, settings: settings)
        let tooLong = String(repeating: "x", count: 1001)
        await store.send(.emergencyNoteChanged(tooLong)) { $0.emergencyNote = tooLong }
        #expect(store.state.noteCharactersLeft == -1)
        await store.send(.nextTapped) {
            $0.errorMessage = "The emergency note can be at most 1000 characters (this one has 1001)"
        }
        // Going back clears the complaint but keeps the text.
        await store.send(.backTapped) {
            $0.step = .names
            $0.errorMessage = nil
        }
        await store.send(.backTapped)
        await store.send(.nextTapped) { $0.step = .note }
        let justRight = String(repeating: "x", count: 1000) + "  "
        await store.send(.emergencyNoteChanged(justRight)) { $0.emergencyNote = justRight }
        await store.send(.nextTapped) { $0.step = .interval }
        await store.send(.backTapped) { $0.step = .note }
        await store.send(.emergencyNoteChanged("")) { $0.emergencyNote = "" }
        await store.send(.nextTapped) { $0.step = .interval }
        await store.send(.nextTapped) { $0.step = .reminder }
        await store.send(.backTapped) { $0.step = .interval }
        #expect(store.state.firstName == "Ann")
        #expect(updates.value.isEmpty && settings.value.isEmpty)
        await store.finish()
    }

    @Test func aReminderMustComeWithinTheInterval() async throws {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let settings = LockIsolated<[CheckInSettings]>([])
        let store = makeStore(.init(step: .reminder, firstName: "Ann"), updates: updates, settings: settings)
        #expect(OnboardingFeature.intervalChoices.map { Int($0.seconds / 3600) } == [1, 2, 4, 8, 12, 24, 48, 72, 168])
        #expect(store.state.leadChoices == [.none, .thirtyMinutes, .twoHours])
        await store.send(.reminderLeadSelected(.twoHours)) { $0.reminderLead = .twoHours }
        await store.send(.backTapped) { $0.step = .interval }
        // Two hours before a 2-hour deadline is the start of the interval: not allowed, so the
        // lead drops to the longest that fits.
        let twoHours = try CheckInInterval.hours(2)
        let oneHour = try Fixtures.oneHour()
        await store.send(.intervalSelected(twoHours)) {
            $0.interval = twoHours
            $0.reminderLead = .thirtyMinutes
        }
        #expect(store.state.leadChoices == [.none, .thirtyMinutes])
        await store.send(.nextTapped) { $0.step = .reminder }
        await store.send(.reminderLeadSelected(.twoHours)) {
            $0.errorMessage = "The reminder must come less than one interval before the deadline"
        }
        await store.send(.reminderLeadSelected(.none)) {
            $0.reminderLead = .none
            $0.errorMessage = nil
        }
        await store.send(.backTapped) { $0.step = .interval }
        // A lead that still fits is left alone.
        await store.send(.intervalSelected(oneHour)) { $0.interval = oneHour }
        await store.send(.nextTapped) { $0.step = .reminder }
        await store.send(.nextTapped) { $0.isSaving = true }
        var expected = Self.saved(ProfileUpdate(firstName: "Ann", emergencyNote: ""))
        expected.checkInIntervalSeconds = 3600
        expected.reminderLead = .none
        await store.receive(.saved(.success(expected))) { $0.isSaving = false }
        await store.receive(.finished(expected))
        // An empty last name is not sent: the server would refuse a blank one.
        #expect(updates.value == [ProfileUpdate(firstName: "Ann", emergencyNote: "")])
        #expect(settings.value == [CheckInSettings(interval: oneHour, reminderLead: .none)])
        await store.finish()
    }

    @Test func finishChecksEveryStepAgainAndAnImpossiblePairIsNeverSent() async throws {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let settings = LockIsolated<[CheckInSettings]>([])
        let store = makeStore(.init(step: .reminder), updates: updates, settings: settings)
        await store.send(.nextTapped) { $0.errorMessage = "Enter your first name" }
        let oneHour = try Fixtures.oneHour()
        let other = makeStore(
            .init(step: .reminder, firstName: "Ann", interval: oneHour, reminderLead: .twoHours), updates: updates,
            settings: settings)
        await other.send(.nextTapped) { $0.errorMessage = "The reminder must come less than one interval before the deadline" }
        #expect(updates.value.isEmpty && settings.value.isEmpty)
        await store.finish()
        await other.finish()
    }

    @Test func aFailedProfileSaveKeepsEverythingAndFinishRetries() async {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let settings = LockIsolated<[CheckInSettings]>([])
        let failNext = LockIsolated(true)
        // The first request is held on its own clock so taps can land while it is in flight.
        let network = TestClock()
        let state = OnboardingFeature.State(step: .reminder, firstName: "Ann", lastName: "Lee", emergencyNote: "Asthma")
        let store = makeStore(state, updates: updates, settings: settings) {
            $0.userClient.update = { update in
                if failNext.value {
                    try await network.sleep(for: .seconds(1))
                    throw URLError(.notConnectedToInternet)
                }
                updates.withValue { $0.append(update) }
                return Self.saved(update)
            }
        }
        await store.send(.nextTapped) { $0.isSaving = true }
        // Navigation and a second tap are ignored while saving.
        await store.send(.nextTapped)
        await store.send(.backTapped)
        await network.waitForSleepers()
        await network.advance(by: .seconds(1))
        await store.receive(matching: {
            if case .saved(.failure(.internal)) = $0 { true } else { false }
        }) {
            $0.isSaving = false
            $0.errorMessage = DomainError(URLError(.notConnectedToInternet)).message
        }
        #expect(settings.value.isEmpty)
        failNext.setValue(false)
        await store.send(.nextTapped) {
            $0.isSaving = true
            $0.errorMessage = nil
        }
        let sent = ProfileUpdate(firstName: "Ann", lastName: "Lee", emergencyNote: "Asthma")
        await store.receive(.saved(.success(Self.saved(sent)))) { $0.isSaving = false }
        await store.receive(.finished(Self.saved(sent)))
        #expect(updates.value == [sent])
        #expect(settings.value == [CheckInSettings()])
        await store.finish()
    }

    @Test func aFailedSettingsSaveIsShownAndTheRetrySendsBothAgain() async {
        let updates = LockIsolated<[ProfileUpdate]>([])
        let settings = LockIsolated<[CheckInSettings]>([])
        let failNext = LockIsolated(true)
        let state = OnboardingFeature.State(step: .reminder, firstName: "Ann")
        let store = makeStore(state, updates: updates, settings: settings) {
            $0.checkInClient.updateSettings = { interval, lead in
                if failNext.value { throw DomainError.invalidArgument("The check-in interval is not allowed") }
                let stored = CheckInSettings(interval: interval ?? .default, reminderLead: lead ?? .default)
                settings.withValue { $0.append(stored) }
                return stored
            }
        }
        await store.send(.nextTapped) { $0.isSaving = true }
        await store.receive(.saved(.failure(.invalidArgument("The check-in interval is not allowed")))) {
            $0.isSaving = false
            $0.errorMessage = "The check-in interval is not allowed"
        }
        failNext.setValue(false)
        await store.send(.nextTapped) {
            $0.isSaving = true
            $0.errorMessage = nil
        }
        let sent = ProfileUpdate(firstName: "Ann", emergencyNote: "")
        await store.receive(.saved(.success(Self.saved(sent)))) { $0.isSaving = false }
        await store.receive(.finished(Self.saved(sent)))
        #expect(updates.value == [sent, sent])
        #expect(settings.value == [CheckInSettings()])
        await store.finish()
    }
}
