import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The SOS button: confirmation before raising, the stand-down, who answered, and failures.
@MainActor
@Suite(.reportsIssues) struct SOSFeatureTests {
    nonisolated static let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-000000000501") ?? UUID())
    nonisolated static let alert = AlertRecord(
        id: UUID(uuidString: "00000000-0000-4000-8000-0000000005a1") ?? UUID(), userID: me, status: .active, activatedAt: Fixtures.start)

    @Test func raiseAsksFirstThenTellsTheResponders() async {
        let triggered = LockIsolated(0)
        let store = TestStore(initialState: SOSFeature.State()) {
            SOSFeature()
        } withDependencies: {
            $0.alertClient.activeAlert = { _ in nil }
            $0.alertClient.trigger = {
                triggered.withValue { $0 += 1 }
                return Self.alert
            }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(nil))) { $0.isLoading = false }
        await store.send(.activateTapped) { $0.isConfirmingActivation = true }
        await store.send(.activationCancelled) { $0.isConfirmingActivation = false }
        // A confirmation that is no longer showing sends nothing.
        await store.send(.activationConfirmed)
        #expect(triggered.value == 0)

        await store.send(.activateTapped) { $0.isConfirmingActivation = true }
        await store.send(.activationConfirmed) {
            $0.isConfirmingActivation = false
            $0.isSending = true
        }
        await store.receive(.activated(.success(Self.alert))) {
            $0.isSending = false
            $0.activeAlert = Self.alert
            $0.notice = "SOS sent: your responders have been told"
        }
        #expect(triggered.value == 1 && store.state.isActive)
        // While active, the button stands down instead of raising again.
        await store.send(.activateTapped)
    }

    @Test func standDownNeedsNoConfirmation() async {
        let cancelled = LockIsolated<[UUID?]>([])
        let store = TestStore(initialState: SOSFeature.State(activeAlert: Self.alert)) {
            SOSFeature()
        } withDependencies: {
            $0.alertClient.cancel = { id in cancelled.withValue { $0.append(id) } }
        }
        await store.send(.deactivateTapped) { $0.isSending = true }
        await store.receive(.deactivated(.success(Self.alert.id))) {
            $0.isSending = false
            $0.activeAlert = nil
            $0.notice = "SOS cancelled: your responders have been told you are safe"
        }
        #expect(cancelled.value == [Self.alert.id])
        // Nothing to stand down any more.
        await store.send(.deactivateTapped)
    }

    @Test func anAlertRaisedElsewhereIsShownInsteadOfADuplicate() async {
        let elsewhere = AlertRecord(
            id: UUID(), userID: Self.me, status: .active, activatedAt: Fixtures.start.addingTimeInterval(-60),
            responses: [
                AlertResponse(responderID: UserID(UUID()), responderName: "Zoe", respondedAt: Fixtures.start),
                AlertResponse(responderID: UserID(UUID()), responderName: "Ann", respondedAt: Fixtures.start.addingTimeInterval(-30)),
            ])
        let store = TestStore(initialState: SOSFeature.State(isConfirmingActivation: true)) {
            SOSFeature()
        } withDependencies: {
            $0.alertClient.trigger = { throw DomainError.failedPrecondition("An alert is already active") }
            $0.alertClient.activeAlert = { _ in elsewhere }
        }
        await store.send(.activationConfirmed) {
            $0.isConfirmingActivation = false
            $0.isSending = true
        }
        await store.receive(.activated(.failure(.failedPrecondition("An alert is already active")))) {
            $0.isSending = false
            $0.errorMessage = "An alert is already active"
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(elsewhere))) {
            $0.isLoading = false
            $0.activeAlert = elsewhere
        }
        #expect(store.state.responders == ["Ann", "Zoe"])
    }

    @Test func aFailedStandDownKeepsTheAlertAndRereads() async {
        let store = TestStore(initialState: SOSFeature.State(activeAlert: Self.alert)) {
            SOSFeature()
        } withDependencies: {
            $0.alertClient.cancel = { _ in throw DomainError.internal("network down") }
            $0.alertClient.activeAlert = { _ in Self.alert }
        }
        await store.send(.deactivateTapped) { $0.isSending = true }
        await store.receive(.deactivated(.failure(.internal("network down")))) {
            $0.isSending = false
            $0.errorMessage = DomainError.internal("network down").message
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(Self.alert))) { $0.isLoading = false }
        #expect(store.state.isActive)
    }
}
