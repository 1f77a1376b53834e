import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The Dependents screen: urgency groups, the three sort orders, the badge, and the actions.
@MainActor
@Suite(.reportsIssues) struct DependentsFeatureTests {
    nonisolated static let now = Fixtures.start

    nonisolated static func dependent(
        _ name: String, _ id: Int, deadlineIn hours: Double?, addedDaysAgo days: Double = 1, alert: Bool = false,
        nonResponsive: Bool = false, pinged: Bool = false, roles: ContactRoles = .dependent
    ) -> ContactSummary {
        ContactSummary(
            id: UserID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", id)) ?? UUID()), name: name,
            phone: "+1555000\(1000 + id)", roles: roles, addedAt: now.addingTimeInterval(-days * 86400),
            lastCheckIn: hours.map { now.addingTimeInterval($0 * 3600 - 86400) }, deadline: hours.map { now.addingTimeInterval($0 * 3600) },
            checkInIntervalSeconds: 86400, isNonResponsive: nonResponsive, activeAlertID: alert ? UUID() : nil,
            outgoingPingAt: pinged ? now : nil)
    }

    nonisolated static let people: [ContactSummary] = [
        dependent("Zoe", 1, deadlineIn: 5, addedDaysAgo: 3),
        dependent("adam", 2, deadlineIn: 2, addedDaysAgo: 9),
        dependent("Maya", 3, deadlineIn: 10, addedDaysAgo: 1, pinged: true),
        dependent("Joe", 4, deadlineIn: -1, addedDaysAgo: 2),  // deadline passed, not yet swept
        dependent("Ann", 5, deadlineIn: 1, alert: true),
        dependent("Rick", 6, deadlineIn: -5, nonResponsive: true, pinged: true),
        dependent("Never", 7, deadlineIn: nil, addedDaysAgo: 0),
        dependent("Responder only", 8, deadlineIn: 1, roles: .responder),
    ]

    func makeStore(_ state: DependentsFeature.State = .init(), _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in })
        -> TestStore<DependentsFeature.State, DependentsFeature.Action>
    {
        TestStore(initialState: state) {
            DependentsFeature()
        } withDependencies: {
            $0.date = .constant(Self.now)
            dependencies(&$0)
        }
    }

    @Test func groupsSortsAndBadge() {
        let names = { (sort: DependentSort) in
            DependentGrouping.groups(Self.people, at: Self.now, sort: sort).map { ($0.0, $0.1.map(\.name)) }
        }
        let byTime = names(.timeLeft)
        #expect(byTime.map(\.0) == [.alert, .nonResponsive, .pinged, .others])
        #expect(byTime.map(\.1) == [["Ann"], ["Rick", "Joe"], ["Maya"], ["adam", "Zoe", "Never"]])
        #expect(names(.name).map(\.1) == [["Ann"], ["Joe", "Rick"], ["Maya"], ["adam", "Never", "Zoe"]])
        #expect(names(.dateAdded).map(\.1) == [["Ann"], ["Rick", "Joe"], ["Maya"], ["Never", "Zoe", "adam"]])
        // Ann (alert), Joe (missed), Rick (missed) need me; a responder-only contact is not listed.
        #expect(DependentGrouping.badge(Self.people, at: Self.now) == 3)
        #expect(DependentGrouping.groups([], at: Self.now, sort: .name).isEmpty)
    }

    @Test func taskLoadsDependentsOnlyAndSortChanges() async {
        let store = makeStore { $0.contactsClient.contacts = { ContactList(contacts: Self.people) } }
        await store.send(.task) {
            $0.isLoading = true
            $0.now = Self.now
        }
        await store.receive(.loaded(.success(ContactList(contacts: Self.people)))) {
            $0.isLoading = false
            $0.contacts = Array(Self.people.dropLast())
        }
        #expect(store.state.badge == 3)
        await store.send(.sortChanged(.name)) { $0.sort = .name }
    }

    @Test func pingThenReloadAndAFailedAnswerIsExplained() async {
        let pinged = LockIsolated<[UserID]>([])
        let zoe = Self.people[0]
        let store = makeStore(.init(contacts: [zoe], now: Self.now)) {
            $0.contactsClient.contacts = { ContactList(contacts: [zoe]) }
            $0.pingClient.ping = { id in
                pinged.withValue { $0.append(id) }
                return UUID()
            }
            $0.alertClient.respond = { _ in throw DomainError.notFound("Alert") }
        }
        await store.send(.pingTapped(zoe.id))
        await store.receive(.actionFinished(.success(true))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: [zoe])))) { $0.isLoading = false }
        #expect(pinged.value == [zoe.id])

        let alertID = UUID()
        await store.send(.respondToAlertTapped(alertID))
        await store.receive(.actionFinished(.failure(.notFound("Alert")))) {
            $0.errorMessage = "Alert was not found"
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [zoe])))) { $0.isLoading = false }
    }

    @Test func aFailedLoadIsExplained() async {
        let store = makeStore { $0.contactsClient.contacts = { throw DomainError.unauthenticated } }
        await store.send(.task) {
            $0.isLoading = true
            $0.now = Self.now
        }
        await store.receive(.loaded(.failure(.unauthenticated))) {
            $0.isLoading = false
            $0.errorMessage = "Sign in first"
        }
    }
}
