import ConcurrencyExtras
import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// Consent on the Contacts screen: a role change that makes me a contact's responder waits for
/// them and says so; role requests both ways are listed, answered (accepted, declined) or
/// withdrawn one at a time, each followed by a reload. Client endpoints a test does not set are
/// unimplemented, so every "no request" claim is checked by the client too.
@MainActor
@Suite(.reportsIssues) struct ContactsFeatureConsentTests {
    typealias Base = ContactsFeatureTests
    nonisolated static let me = UserID(Base.uuid(99))
    nonisolated static let anna = Base.anna
    nonisolated static let ben = Base.ben

    /// Ben asks to become my responder.
    nonisolated static let fromBen = RoleRequest(
        id: Base.uuid(40), requesterID: ben.id, requesterName: "ben", ownerID: me, ownerName: "Me", createdAt: Fixtures.start)
    /// I asked to become Anna's responder.
    nonisolated static let toAnna = RoleRequest(
        id: Base.uuid(41), requesterID: me, requesterName: "Me", ownerID: anna.id, ownerName: "Anna", createdAt: Fixtures.start)

    func makeStore(_ state: ContactsFeature.State = .init(), _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in })
        -> TestStore<ContactsFeature.State, ContactsFeature.Action>
    {
        TestStore(initialState: state) {
            ContactsFeature()
        } withDependencies: {
            dependencies(&$0)
        }
    }

    @Test func theListCarriesRoleRequestsBothWays() async {
        let list = ContactList(contacts: [Self.anna, Self.ben], receivedRoleRequests: [Self.fromBen], sentRoleRequests: [Self.toAnna])
        let store = makeStore { $0.contactsClient.contacts = { list } }
        await store.send(.task) { $0.isLoading = true }
        await store.receive(.loaded(.success(list))) {
            $0.isLoading = false
            $0.contacts = [Self.anna, Self.ben]
            $0.receivedRoleRequests = [Self.fromBen]
            $0.sentRoleRequests = [Self.toAnna]
        }
        await store.finish()
    }

    @Test func becomingAContactsResponderWaitsForThemAndSaysSo() async {
        let calls = LockIsolated<[String]>([])
        let outcome = RoleChangeOutcome(contact: Self.anna, pendingRequest: Self.toAnna)
        let after = ContactList(contacts: [Self.anna], sentRoleRequests: [Self.toAnna])
        let store = makeStore(.init(contacts: [Self.anna], notice: "An older notice")) {
            $0.contactsClient.updateRoles = { id, roles in
                calls.withValue { $0.append("updateRoles \(id) \(roles.names)") }
                return outcome
            }
            $0.contactsClient.contacts = { after }
        }
        await store.send(.rolesTapped(Self.anna.id, .both)) { $0.pendingChange = .roles(Self.anna.id, .both) }
        await store.send(.changeConfirmed) {
            $0.isApplyingChange = true
            $0.notice = nil
        }
        // Her roles stay as they were; the request waits for her.
        await store.receive(.changeApplied(.success(.roles(outcome)))) {
            $0.isApplyingChange = false
            $0.pendingChange = nil
            $0.notice = "Request sent, waiting for Anna to accept you as their responder"
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(after))) {
            $0.isLoading = false
            $0.sentRoleRequests = [Self.toAnna]
        }
        #expect(calls.value == ["updateRoles \(Self.anna.id) [\"responder\", \"dependent\"]"])
        await store.send(.noticeDismissed) { $0.notice = nil }
        await store.finish()
    }

    @Test func aRoleChangeAppliedAtOnceTellsNothingMore() async {
        // Dropping the dependent role needs nobody's consent.
        let carlResponder = Base.contact("Carl", 3, roles: .responder)
        let store = makeStore(.init(contacts: [Base.carl], pendingChange: .roles(Base.carl.id, .responder))) {
            $0.contactsClient.updateRoles = { _, _ in RoleChangeOutcome(contact: carlResponder) }
            $0.contactsClient.contacts = { ContactList(contacts: [carlResponder]) }
        }
        await store.send(.changeConfirmed) { $0.isApplyingChange = true }
        await store.receive(.changeApplied(.success(.roles(RoleChangeOutcome(contact: carlResponder))))) {
            $0.isApplyingChange = false
            $0.pendingChange = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [carlResponder])))) {
            $0.isLoading = false
            $0.contacts = [carlResponder]
        }
        #expect(store.state.notice == nil)
        await store.finish()
    }

    @Test func receivedRequestsAreAcceptedOrDeclinedThenTheListReloads() async {
        let calls = LockIsolated<[String]>([])
        let fromCarl = RoleRequest(
            id: Base.uuid(42), requesterID: Base.carl.id, requesterName: "Carl", ownerID: Self.me, ownerName: "Me", createdAt: Fixtures.start)
        let benBoth = Base.contact("ben", 2, roles: .both)
        let list = LockIsolated(ContactList(contacts: [Self.ben, Base.carl], receivedRoleRequests: [Self.fromBen, fromCarl]))
        let store = makeStore(.init(contacts: [Self.ben, Base.carl], receivedRoleRequests: [Self.fromBen, fromCarl])) {
            $0.contactsClient.acceptRoleRequest = { id in
                calls.withValue { $0.append("accept \(id)") }
                list.setValue(ContactList(contacts: [benBoth, Base.carl], receivedRoleRequests: [fromCarl]))
                return benBoth
            }
            $0.contactsClient.declineRoleRequest = { id in
                calls.withValue { $0.append("decline \(id)") }
                list.setValue(ContactList(contacts: [benBoth, Base.carl]))
            }
            $0.contactsClient.contacts = { list.value }
        }
        await store.send(.acceptRoleRequestTapped(Self.fromBen.id)) { $0.answeringRoleRequestID = Self.fromBen.id }
        await store.receive(.roleRequestAnswered(.success(Self.fromBen.id))) {
            $0.answeringRoleRequestID = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [benBoth, Base.carl], receivedRoleRequests: [fromCarl])))) {
            $0.isLoading = false
            $0.contacts = [benBoth, Base.carl]
            $0.receivedRoleRequests = [fromCarl]
        }
        await store.send(.declineRoleRequestTapped(fromCarl.id)) { $0.answeringRoleRequestID = fromCarl.id }
        await store.receive(.roleRequestAnswered(.success(fromCarl.id))) {
            $0.answeringRoleRequestID = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [benBoth, Base.carl])))) {
            $0.isLoading = false
            $0.receivedRoleRequests = []
        }
        #expect(calls.value == ["accept \(Self.fromBen.id)", "decline \(fromCarl.id)"])
        await store.finish()
    }

    @Test func aSentRequestIsWithdrawn() async {
        let calls = LockIsolated<[String]>([])
        let store = makeStore(.init(contacts: [Self.anna], sentRoleRequests: [Self.toAnna], notice: "Request sent")) {
            $0.contactsClient.cancelRoleRequest = { id in calls.withValue { $0.append("cancel \(id)") } }
            $0.contactsClient.contacts = { ContactList(contacts: [Self.anna]) }
        }
        await store.send(.cancelRoleRequestTapped(Self.toAnna.id)) {
            $0.answeringRoleRequestID = Self.toAnna.id
            $0.notice = nil
        }
        await store.receive(.roleRequestAnswered(.success(Self.toAnna.id))) {
            $0.answeringRoleRequestID = nil
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.anna])))) {
            $0.isLoading = false
            $0.sentRoleRequests = []
        }
        #expect(calls.value == ["cancel \(Self.toAnna.id)"])
        await store.finish()
    }

    @Test func oneAnswerAtATimeOnlyToRequestsOnTheRightSideAndAFailureReloads() async {
        let gate = ContactsFeatureTests.Gate()
        let store = makeStore(.init(receivedRoleRequests: [Self.fromBen], sentRoleRequests: [Self.toAnna])) {
            $0.contactsClient.acceptRoleRequest = { _ in
                await gate.wait()
                throw DomainError.notFound("Role request")
            }
            $0.contactsClient.contacts = { ContactList(contacts: [Self.ben]) }
        }
        // A request I sent cannot be accepted or declined by me, one I received cannot be
        // withdrawn by me, and an unknown one asks nothing.
        await store.send(.acceptRoleRequestTapped(Self.toAnna.id))
        await store.send(.declineRoleRequestTapped(Self.toAnna.id))
        await store.send(.cancelRoleRequestTapped(Self.fromBen.id))
        await store.send(.acceptRoleRequestTapped(Base.uuid(77)))
        await store.send(.acceptRoleRequestTapped(Self.fromBen.id)) { $0.answeringRoleRequestID = Self.fromBen.id }
        await store.send(.declineRoleRequestTapped(Self.fromBen.id))
        await store.send(.cancelRoleRequestTapped(Self.toAnna.id))
        gate.open()
        // Ben withdrew it meanwhile: the failure is explained and the list shows how things stand.
        await store.receive(.roleRequestAnswered(.failure(.notFound("Role request")))) {
            $0.answeringRoleRequestID = nil
            $0.errorMessage = "Role request was not found"
            $0.isLoading = true
        }
        await store.receive(.loaded(.success(ContactList(contacts: [Self.ben])))) {
            $0.isLoading = false
            $0.contacts = [Self.ben]
            $0.receivedRoleRequests = []
            $0.sentRoleRequests = []
        }
        await store.finish()
    }
}
