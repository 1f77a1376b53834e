import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Push, SMS and email choices: loaded, one channel sent per change, failures explained.
@MainActor
@Suite(.reportsIssues) struct NotificationChannelsFeatureTests {
    @Test func aChoiceSendsOnlyItsChannel() async {
        let sent = LockIsolated<[String]>([])
        let store = TestStore(initialState: NotificationChannelsFeature.State()) {
            NotificationChannelsFeature()
        } withDependencies: {
            $0.notificationClient.deliveryPreferences = { .standard }
            $0.notificationClient.updateDeliveryPreferences = { push, sms, email, _ in
                sent.withValue { $0.append([push, sms, email].map { $0?.rawValue ?? "-" }.joined(separator: " ")) }
                var stored = DeliveryPreferences.standard
                if let push { stored.push = push }
                if let sms { stored.sms = sms }
                if let email { stored.email = email }
                return stored
            }
        }
        await store.send(.task)
        await store.receive(.loaded(.success(.standard))) { $0.preferences = .standard }
        // The stored choice again sends nothing.
        await store.send(.choicePicked(.push, .all))
        await store.send(.choicePicked(.sms, .off)) { $0.isSaving = true }
        await store.receive(.saved(.success(DeliveryPreferences(push: .all, sms: .off, email: .urgent)))) {
            $0.isSaving = false
            $0.preferences = DeliveryPreferences(push: .all, sms: .off, email: .urgent)
        }
        await store.send(.choicePicked(.email, .all)) { $0.isSaving = true }
        await store.receive(.saved(.success(DeliveryPreferences(push: .all, sms: .urgent, email: .all)))) {
            $0.isSaving = false
            $0.preferences = DeliveryPreferences(push: .all, sms: .urgent, email: .all)
        }
        #expect(sent.value == ["- off -", "- - all"])
        #expect(!store.state.isUnreachableOutsideTheApp)
    }

    @Test func everyChannelOffWarnsAndAFailureIsExplained() async {
        let silent = DeliveryPreferences(push: .off, sms: .off, email: .urgent)
        let store = TestStore(initialState: NotificationChannelsFeature.State(preferences: silent)) {
            NotificationChannelsFeature()
        } withDependencies: {
            $0.notificationClient.updateDeliveryPreferences = { _, _, _, _ in throw DomainError.unauthenticated }
        }
        #expect(!store.state.isUnreachableOutsideTheApp)
        #expect(NotificationChannelsFeature.State(preferences: DeliveryPreferences(push: .off, sms: .off, email: .off)).isUnreachableOutsideTheApp)
        await store.send(.choicePicked(.email, .off)) { $0.isSaving = true }
        await store.receive(.saved(.failure(.unauthenticated))) {
            $0.isSaving = false
            $0.errorMessage = "Sign in first"
        }
        #expect(store.state.preferences == silent)
    }
}
