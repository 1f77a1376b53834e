import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Grace, tier delay, repeats, responder tiers and the pause: saved at once, only what
/// changed sent, out of range refused before any request.
@MainActor
@Suite(.reportsIssues) struct EscalationSettingsFeatureTests {
    nonisolated static let maya = UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000701") ?? UUID())
    nonisolated static let sam = UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000702") ?? UUID())
    nonisolated static let stored = CheckInEscalation(
        responders: [.init(id: maya, name: "Maya", tier: 1), .init(id: sam, name: "Sam", tier: 1)])

    @Test func eachSettingIsSavedAtOnceWithOnlyWhatChanged() async {
        let sent = LockIsolated<[String]>([])
        let store = TestStore(initialState: EscalationSettingsFeature.State()) {
            EscalationSettingsFeature()
        } withDependencies: {
            $0.checkInClient.escalation = { Self.stored }
            $0.checkInClient.updateEscalation = { grace, delay, repeats in
                sent.withValue { $0.append("\(grace ?? -1) \(delay ?? -1) \(repeats ?? -1)") }
                var next = Self.stored
                next.settings = EscalationSettings(
                    graceSeconds: grace ?? 0, tierDelaySeconds: delay ?? 7200,
                    repeatSeconds: repeats == 0 ? nil : repeats)
                return next
            }
        }
        await store.send(.task)
        await store.receive(.loaded(.success(Self.stored))) { $0.escalation = Self.stored }
        await store.send(.gracePicked(900)) { $0.isSaving = true }
        var graced = Self.stored
        graced.settings.graceSeconds = 900
        await store.receive(.saved(.success(graced))) {
            $0.isSaving = false
            $0.escalation = graced
        }
        // The same value again sends nothing.
        await store.send(.gracePicked(900))

        await store.send(.repeatPicked(1800)) { $0.isSaving = true }
        var repeating = Self.stored
        repeating.settings.repeatSeconds = 1800
        await store.receive(.saved(.success(repeating))) {
            $0.isSaving = false
            $0.escalation = repeating
        }
        // "No repeats" goes out as 0, as the functions spell it.
        await store.send(.repeatPicked(nil)) { $0.isSaving = true }
        await store.receive(.saved(.success(Self.stored))) {
            $0.isSaving = false
            $0.escalation = Self.stored
        }
        await store.send(.tierDelayPicked(3600)) { $0.isSaving = true }
        var delayed = Self.stored
        delayed.settings.tierDelaySeconds = 3600
        await store.receive(.saved(.success(delayed))) {
            $0.isSaving = false
            $0.escalation = delayed
        }
        #expect(sent.value == ["900 -1 -1", "-1 -1 1800", "-1 -1 0", "-1 3600 -1"])
    }

    @Test func outOfRangeIsRefusedWithoutARequest() async {
        let store = TestStore(initialState: EscalationSettingsFeature.State(escalation: Self.stored)) { EscalationSettingsFeature() }
        await store.send(.gracePicked(90_000)) {
            $0.errorMessage = DomainError.invalidArgument("graceSeconds must be from 0 to 86400 (24 hours), not 90000").message
        }
        await store.send(.tierDelayPicked(60)) {
            $0.errorMessage = DomainError.invalidArgument("tierDelaySeconds must be from 300 to 86400 (5 minutes to 24 hours), not 60").message
        }
        await store.send(.repeatPicked(600)) {
            $0.errorMessage =
                DomainError.invalidArgument(
                    "repeatSeconds must be 0 (no repeats) or from 900 to 86400 (15 minutes to 24 hours), not 600"
                ).message
        }
        await store.send(.tierPicked(responder: Self.maya, tier: 10)) {
            $0.errorMessage = DomainError.invalidArgument("tier must be from 1 to 9, not 10").message
        }
        // Maya is already in tier 1: nothing to send.
        await store.send(.tierPicked(responder: Self.maya, tier: 1))
        // Not paused: nothing to resume.
        await store.send(.resumeTapped)
    }

    @Test func aResponderTierThenPauseAndResume() async {
        let until = Fixtures.start.addingTimeInterval(8 * 3600)
        let tiered = CheckInEscalation(responders: [.init(id: Self.maya, name: "Maya", tier: 1), .init(id: Self.sam, name: "Sam", tier: 2)])
        let paused = CheckInEscalation(settings: tiered.settings, pausedUntil: until, responders: tiered.responders)
        let calls = LockIsolated<[String]>([])
        let store = TestStore(initialState: EscalationSettingsFeature.State(escalation: Self.stored)) {
            EscalationSettingsFeature()
        } withDependencies: {
            $0.checkInClient.setResponderTier = { id, tier in
                calls.withValue { $0.append("tier \(id == Self.sam ? "Sam" : "?") \(tier)") }
                return tiered
            }
            $0.checkInClient.pause = { date in
                calls.withValue { $0.append("pause \(date == until)") }
                return paused
            }
            $0.checkInClient.resume = {
                calls.withValue { $0.append("resume") }
                return tiered
            }
        }
        await store.send(.tierPicked(responder: Self.sam, tier: 2)) { $0.isSaving = true }
        await store.receive(.saved(.success(tiered))) {
            $0.isSaving = false
            $0.escalation = tiered
        }
        await store.send(.pauseTapped(until: until)) { $0.isSaving = true }
        await store.receive(.saved(.success(paused))) {
            $0.isSaving = false
            $0.escalation = paused
        }
        await store.send(.resumeTapped) { $0.isSaving = true }
        await store.receive(.saved(.success(tiered))) {
            $0.isSaving = false
            $0.escalation = tiered
        }
        #expect(calls.value == ["tier Sam 2", "pause true", "resume"])
    }

    @Test func aRefusedSaveIsExplainedAndKeepsTheStoredState() async {
        let store = TestStore(initialState: EscalationSettingsFeature.State(escalation: Self.stored)) {
            EscalationSettingsFeature()
        } withDependencies: {
            $0.checkInClient.pause = { _ in throw DomainError.invalidArgument("until must be after now and at most 30 days ahead") }
        }
        await store.send(.pauseTapped(until: Fixtures.start)) { $0.isSaving = true }
        await store.receive(.saved(.failure(.invalidArgument("until must be after now and at most 30 days ahead")))) {
            $0.isSaving = false
            $0.errorMessage = DomainError.invalidArgument("until must be after now and at most 30 days ahead").message
        }
        #expect(store.state.escalation == Self.stored)
    }
}
