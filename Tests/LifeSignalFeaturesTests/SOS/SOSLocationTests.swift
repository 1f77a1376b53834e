import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// An SOS carries the person's location only while they share it.
@MainActor
@Suite(.reportsIssues) struct SOSLocationTests {
    nonisolated static let place = AlertLocation(latitude: 48.8584, longitude: 2.2945, accuracyMeters: 12, time: Fixtures.start)

    @Test func aSharedLocationGoesWithTheSOS() async {
        let sharedWith = LockIsolated<[AlertLocation]>([])
        var alert = SOSFeatureTests.alert
        alert.location = Self.place
        let raised = alert
        let store = TestStore(initialState: SOSFeature.State()) {
            SOSFeature()
        } withDependencies: {
            $0.alertClient.triggerSharing = { location in
                sharedWith.withValue { $0.append(location) }
                return raised
            }
        }
        await store.send(.locationShared(Self.place)) { $0.sharedLocation = Self.place }
        await store.send(.activateTapped) { $0.isConfirmingActivation = true }
        await store.send(.activationConfirmed) {
            $0.isConfirmingActivation = false
            $0.isSending = true
        }
        await store.receive(.activated(.success(raised))) {
            $0.isSending = false
            $0.activeAlert = raised
            $0.notice = "SOS sent: your responders have been told where you are"
        }
        #expect(sharedWith.value == [Self.place])
    }

    @Test func sharingTurnedOffSendsNoPlace() async {
        let plain = LockIsolated(0)
        let store = TestStore(initialState: SOSFeature.State(sharedLocation: Self.place)) {
            SOSFeature()
        } withDependencies: {
            // triggerSharing is left unimplemented: calling it would fail the test.
            $0.alertClient.trigger = {
                plain.withValue { $0 += 1 }
                return SOSFeatureTests.alert
            }
        }
        await store.send(.locationShared(nil)) { $0.sharedLocation = nil }
        await store.send(.activateTapped) { $0.isConfirmingActivation = true }
        await store.send(.activationConfirmed) {
            $0.isConfirmingActivation = false
            $0.isSending = true
        }
        await store.receive(.activated(.success(SOSFeatureTests.alert))) {
            $0.isSending = false
            $0.activeAlert = SOSFeatureTests.alert
            $0.notice = "SOS sent: your responders have been told"
        }
        #expect(plain.value == 1)
    }
}
