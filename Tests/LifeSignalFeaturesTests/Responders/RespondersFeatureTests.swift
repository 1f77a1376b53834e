import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The Responders screen: pinging responders first, the badge, answering one or all.
@MainActor
@Suite(.reportsIssues) struct RespondersFeatureTests {
    nonisolated static func responder(_ name: String, _ id: Int, pingedMinutesAgo minutes: Double? = nil, roles: ContactRoles = .responder) -> ContactSummary {
        ContactSummary(
            id: UserID(UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", id)) ?? UUID()), name: name,
            phone: "+1555000\(2000 + id)", roles: roles, addedAt: Fixtures.start,
            incomingPingAt: minutes.map { Fixtures.start.addingTimeInterval(-$0 * 60) })
    }

    nonisolated static let maya = responder("Maya", 1, pingedMinutesAgo: 5)
    nonisolated static let ben = responder("ben", 2)
    nonisolated static let carl = responder("Carl", 3, pingedMinutesAgo: 30)
    nonisolated static let dependentOnly = responder("Dee", 4, roles: .dependent)

    @Test func orderBadgeAndDependentsLeftOut() async {
        let store = TestStore(initialState: RespondersFeature.State()) {
            RespondersFeature()
        } withDependencies: {
            $0.contactsClient.contacts = { ContactList(contacts: [Self.maya, Self.ben, Self.carl, Self.dependentOnly]) }
        }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.maya, Self.ben, Self.carl, Self.dependentOnly])))) {
            $0.isLoading = false
            $0.contacts = [Self.maya, Self.ben, Self.carl]
        }
        #expect(store.state.ordered.map(\.name) == ["Carl", "Maya", "ben"])
        #expect(store.state.badge == 2)
    }

    @Test func answerAllAsksFirstAndCancelDoesNothing() async {
        let answered = LockIsolated(0)
        let waiting = LockIsolated([Self.maya, Self.carl])
        let store = TestStore(initialState: RespondersFeature.State(contacts: [Self.maya, Self.carl])) {
            RespondersFeature()
        } withDependencies: {
            $0.contactsClient.contacts = { ContactList(contacts: waiting.value) }
            $0.pingClient.respondToAll = {
                answered.withValue { $0 += 1 }
                waiting.setValue([Self.responder("Maya", 1), Self.responder("Carl", 3)])
                return 2
            }
        }
        await store.send(.respondToAllTapped) { $0.isConfirmingRespondAll = true }
        await store.send(.respondToAllCancelled) { $0.isConfirmingRespondAll = false }
        await store.send(.respondToAllConfirmed)
        #expect(answered.value == 0)
        await store.send(.respondToAllTapped) { $0.isConfirmingRespondAll = true }
        await store.send(.respondToAllConfirmed) { $0.isConfirmingRespondAll = false }
        await store.receive(.responded(.success(2))) { $0.isLoading = true }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.responder("Maya", 1), Self.responder("Carl", 3)])))) {
            $0.isLoading = false
            $0.contacts = [Self.responder("Maya", 1), Self.responder("Carl", 3)]
        }
        #expect(answered.value == 1 && store.state.badge == 0)
        // With nobody waiting there is nothing to confirm.
        await store.send(.respondToAllTapped)
    }

    @Test func answerOneAndAFailureIsExplained() async {
        let store = TestStore(initialState: RespondersFeature.State(contacts: [Self.maya])) {
            RespondersFeature()
        } withDependencies: {
            $0.contactsClient.contacts = { ContactList(contacts: [Self.maya]) }
            $0.pingClient.respond = { _ in throw DomainError.notFound("Ping") }
        }
        await store.send(.respondTapped(Self.maya.id))
        await store.receive(.responded(.failure(.notFound("Ping")))) {
            $0.errorMessage = "Ping was not found"
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.maya])))) { $0.isLoading = false }
    }
}
