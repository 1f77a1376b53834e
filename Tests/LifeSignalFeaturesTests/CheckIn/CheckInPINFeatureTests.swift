import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The PIN screen: PINs checked before any request, cleared from the state once sent.
@MainActor
@Suite(.reportsIssues) struct CheckInPINFeatureTests {
    @Test func savingSendsBothPINsAndClearsThemFromTheState() async throws {
        let sent = LockIsolated<[String]>([])
        let store = TestStore(initialState: CheckInPINFeature.State()) {
            CheckInPINFeature()
        } withDependencies: {
            $0.checkInClient.pinSettings = { CheckInPINSettings() }
            $0.checkInClient.setPINs = { pin, duress in
                sent.withValue { $0.append("\(pin ?? "-") \(duress ?? "-")") }
                return CheckInPINSettings(hasPIN: pin != nil, hasDuressPIN: duress != nil)
            }
        }
        await store.send(.task)
        await store.receive(.loaded(.success(CheckInPINSettings()))) { $0.settings = CheckInPINSettings() }
        await store.send(.pinChanged("4821")) { $0.pin = "4821" }
        await store.send(.duressPINChanged("7350")) { $0.duressPIN = "7350" }
        await store.send(.saveTapped) {
            $0.isSaving = true
            $0.pin = ""
            $0.duressPIN = ""
        }
        await store.receive(.saved(.success(CheckInPINSettings(hasPIN: true, hasDuressPIN: true)))) {
            $0.isSaving = false
            $0.settings = CheckInPINSettings(hasPIN: true, hasDuressPIN: true)
        }
        await store.send(.removeTapped) { $0.isSaving = true }
        await store.receive(.saved(.success(CheckInPINSettings()))) {
            $0.isSaving = false
            $0.settings = CheckInPINSettings()
        }
        #expect(sent.value == ["4821 7350", "- -"])
    }

    @Test func aPINThatBreaksTheRulesIsRefusedWithoutARequest() async throws {
        let store = TestStore(initialState: CheckInPINFeature.State(settings: CheckInPINSettings())) { CheckInPINFeature() }
        await store.send(.pinChanged("12")) { $0.pin = "12" }
        await store.send(.saveTapped) { $0.errorMessage = "A check-in PIN is 4 to 8 digits" }
        await store.send(.pinChanged("4821")) { $0.pin = "4821" }
        await store.send(.duressPINChanged("4821")) { $0.duressPIN = "4821" }
        await store.send(.saveTapped) { $0.errorMessage = "The duress PIN must differ from the check-in PIN" }
    }

    @Test func aRefusedSaveIsShownAndThePINsAreNotKept() async throws {
        let store = TestStore(initialState: CheckInPINFeature.State(settings: CheckInPINSettings())) {
            CheckInPINFeature()
        } withDependencies: {
            $0.checkInClient.setPINs = { _, _ in throw DomainError.unauthenticated }
        }
        await store.send(.pinChanged("4821")) { $0.pin = "4821" }
        await store.send(.saveTapped) {
            $0.isSaving = true
            $0.pin = ""
        }
        await store.receive(.saved(.failure(.unauthenticated))) {
            $0.isSaving = false
            $0.errorMessage = "Sign in first"
        }
    }
}
