import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// A dependent's incident on the Dependents screen: "I'm on it", then "They're safe".
@MainActor
@Suite(.reportsIssues) struct DependentsIncidentTests {
    @Test func acknowledgeThenMarkSafeReloadsTheList() async {
        let ann = DependentsFeatureTests.dependent("Ann", 5, deadlineIn: -1, alert: true)
        let alertID = ann.activeAlertID ?? UUID()
        let safe = DependentsFeatureTests.dependent("Ann", 5, deadlineIn: -1)
        let list = LockIsolated(ContactList(contacts: [ann]))
        let calls = LockIsolated<[String]>([])
        let store = DependentsFeatureTests().makeStore(.init(contacts: [ann], now: DependentsFeatureTests.now)) {
            $0.contactsClient.contacts = { list.value }
            $0.alertClient.respond = { id in
                calls.withValue { $0.append("on it \(id == alertID)") }
                return DependentsFeatureTests.now
            }
            $0.alertClient.markSafe = { id in
                calls.withValue { $0.append("safe \(id == alertID)") }
                list.setValue(ContactList(contacts: [safe]))
                return DependentsFeatureTests.now
            }
        }
        #expect(store.state.badge == 1)
        await store.send(.respondToAlertTapped(alertID))
        await store.receive(.actionFinished(.success(true))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: [ann])))) { $0.isLoading = false }
        await store.send(.markSafeTapped(alertID))
        await store.receive(.actionFinished(.success(true))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: [safe])))) {
            $0.isLoading = false
            $0.contacts = [safe]
        }
        #expect(calls.value == ["on it true", "safe true"])
    }

    @Test func anIncidentAlreadyOverIsExplained() async {
        let ann = DependentsFeatureTests.dependent("Ann", 5, deadlineIn: 1, alert: true)
        let store = DependentsFeatureTests().makeStore(.init(contacts: [ann], now: DependentsFeatureTests.now)) {
            $0.contactsClient.contacts = { ContactList(contacts: [ann]) }
            $0.alertClient.markSafe = { _ in throw DomainError.failedPrecondition("This alert is already over") }
        }
        await store.send(.markSafeTapped(UUID()))
        await store.receive(.actionFinished(.failure(.failedPrecondition("This alert is already over")))) {
            $0.errorMessage = DomainError.failedPrecondition("This alert is already over").message
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [ann])))) { $0.isLoading = false }
    }
}
