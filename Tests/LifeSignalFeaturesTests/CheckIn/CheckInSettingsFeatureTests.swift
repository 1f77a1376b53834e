import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Interval and reminder changes: proposed, checked, confirmed or cancelled.
@MainActor
@Suite(.reportsIssues) struct CheckInSettingsFeatureTests {
    @Test func aChangeWaitsForConfirmationAndSendsOnlyWhatChanged() async throws {
        let twoHours = try CheckInInterval.hours(2)
        let saved = LockIsolated<[String]>([])
        let store = TestStore(initialState: CheckInSettingsFeature.State()) {
            CheckInSettingsFeature()
        } withDependencies: {
            $0.checkInClient.settings = { CheckInSettings() }
            $0.checkInClient.updateSettings = { interval, lead in
                saved.withValue { $0.append("\(interval?.seconds ?? -1) \(lead?.rawValue ?? "-")") }
                return CheckInSettings(interval: interval ?? .default, reminderLead: lead ?? .default)
            }
        }
        await store.send(.task)
        await store.receive(.loaded(.success(CheckInSettings()))) { $0.settings = CheckInSettings() }
        await store.send(.intervalPicked(twoHours)) { $0.pending = CheckInSettings(interval: twoHours, reminderLead: .thirtyMinutes) }
        await store.send(.cancelTapped) { $0.pending = nil }
        #expect(saved.value.isEmpty)

        await store.send(.intervalPicked(twoHours)) { $0.pending = CheckInSettings(interval: twoHours, reminderLead: .thirtyMinutes) }
        await store.send(.confirmTapped) { $0.isSaving = true }
        await store.receive(.saved(.success(CheckInSettings(interval: twoHours, reminderLead: .default)))) {
            $0.isSaving = false
            $0.settings = CheckInSettings(interval: twoHours, reminderLead: .thirtyMinutes)
            $0.pending = nil
        }
        #expect(saved.value == ["7200.0 -"])
    }

    @Test func aReminderAsLongAsTheIntervalIsRefusedWithoutARequest() async throws {
        let twoHours = try CheckInInterval.hours(2)
        let store = TestStore(initialState: CheckInSettingsFeature.State(settings: CheckInSettings(interval: twoHours))) {
            CheckInSettingsFeature()
        }
        await store.send(.reminderPicked(.twoHours)) {
            $0.errorMessage = "The reminder must come less than one interval before the deadline"
        }
        await store.send(.reminderPicked(.none)) {
            $0.errorMessage = nil
            $0.pending = CheckInSettings(interval: twoHours, reminderLead: .none)
        }
        // Picking the saved value back drops the proposal: there is nothing to confirm.
        await store.send(.reminderPicked(.thirtyMinutes)) { $0.pending = nil }
        await store.send(.confirmTapped)
    }

    @Test func aFailedSaveKeepsTheProposal() async throws {
        let day = CheckInSettings()
        let proposal = CheckInSettings(interval: try .hours(48), reminderLead: .twoHours)
        let store = TestStore(initialState: CheckInSettingsFeature.State(settings: day, pending: proposal)) {
            CheckInSettingsFeature()
        } withDependencies: {
            $0.checkInClient.updateSettings = { _, _ in throw DomainError.internal("network down") }
        }
        await store.send(.confirmTapped) { $0.isSaving = true }
        await store.receive(.saved(.failure(.internal("network down")))) {
            $0.isSaving = false
            $0.errorMessage = DomainError.internal("network down").message
        }
        #expect(store.state.pending == proposal && store.state.settings == day)
    }
}
