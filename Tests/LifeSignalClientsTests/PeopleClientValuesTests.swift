import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@Suite("Contacts, alert and ping client values")
struct PeopleClientValuesTests {
    @Test("the test values fail any call a test did not override")
    func testValuesAreUnimplemented() async throws {
        await withKnownIssue { _ = try await ContactsClient.testValue.contacts() }
        await withKnownIssue { _ = try await AlertClient.testValue.trigger() }
        await withKnownIssue { _ = try await PingClient.testValue.respondToAll() }
        await withKnownIssue { _ = try await ContactsClient.testValue.stream() }
        await withKnownIssue { _ = try await ContactsClient.testValue.qrCode() }
        await withKnownIssue { _ = try await ContactsClient.testValue.acceptRoleRequest(UUID()) }
        await withKnownIssue { _ = try await AlertClient.testValue.stream() }
        await withKnownIssue { _ = try await PingClient.testValue.pending() }
        await withKnownIssue { _ = try await PingClient.testValue.sent() }
        await withKnownIssue { _ = try await PingClient.testValue.stream() }
    }

    @Test("the preview contacts: a responder and a dependent; roles change with consent, role requests, removal, invitations, QR codes")
    func previewContacts() async throws {
        let client = ContactsClient.previewValue
        let list = try await client.contacts()
        #expect(list.contacts.map(\.name) == ["Maya Lopez", "Grandpa Joe"])
        #expect(list.contacts.map(\.roles) == [.responder, .dependent])
        let joe = list.contacts[1]
        #expect(joe.deadline == joe.lastCheckIn?.addingTimeInterval(86400))
        // Becoming Maya's responder waits for her consent; making Joe my responder does not.
        let maya = list.contacts[0]
        let asked = try await client.updateRoles(maya.id, .both)
        #expect(asked.contact == maya)
        let request = try #require(asked.pendingRequest)
        #expect(request.ownerID == maya.id && request.ownerName == "Maya Lopez")
        #expect(try await client.contacts().sentRoleRequests == [request])
        // Asking again answers the same request; withdrawing it leaves none.
        #expect(try await client.updateRoles(maya.id, .both).pendingRequest == request)
        try await client.cancelRoleRequest(request.id)
        #expect(try await client.contacts().sentRoleRequests.isEmpty)
        // Not asking any more withdraws it too; a change that would leave no role meanwhile is refused.
        _ = try await client.updateRoles(maya.id, .both)
        #expect(try await client.updateRoles(maya.id, .responder) == RoleChangeOutcome(contact: maya))
        #expect(try await client.contacts().sentRoleRequests.isEmpty)
        await #expect(throws: DomainError.failedPrecondition("Keep a role while your request waits, or remove the contact")) {
            try await client.updateRoles(maya.id, .dependent)
        }
        let joeBoth = try await client.updateRoles(joe.id, .both)
        #expect(joeBoth.contact.roles == .both && joeBoth.pendingRequest == nil)
        // Joe's own request to become my responder: accepted once.
        let fromJoe = try #require(list.receivedRoleRequests.first)
        #expect(fromJoe.requesterID == joe.id && fromJoe.requesterName == "Grandpa Joe")
        #expect(try await client.acceptRoleRequest(fromJoe.id).roles == .both)
        #expect(try await client.contacts().receivedRoleRequests.isEmpty)
        await #expect(throws: DomainError.notFound("Role request")) { try await client.declineRoleRequest(fromJoe.id) }
        try await client.remove(joe.id)
        await #expect(throws: DomainError.notFound("Contact \(joe.id)")) { try await client.remove(joe.id) }
        let invitation = try await client.invite(try PhoneNumber("+15550100009"), .responder)
        #expect(try await client.contacts().sentInvitations == [invitation])
        let shown = try await client.qrCode()
        #expect(try await client.qrCode() == shown)
        let first = try await client.resetQRCode()
        let second = try await client.resetQRCode()
        #expect(first != second && first != shown)
        #expect(try await client.qrCode() == second)
        #expect(second.expiresAt.timeIntervalSince(shown.expiresAt) == 0 && second.expiresAt > Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("the preview alert: one at a time, cancelled once")
    func previewAlert() async throws {
        let client = AlertClient.previewValue
        let alert = try await client.trigger()
        #expect(alert.status == .active)
        #expect(try await client.activeAlert(nil) == alert)
        await #expect(throws: DomainError.failedPrecondition("An alert is already active")) { _ = try await client.trigger() }
        try await client.cancel(alert.id)
        #expect(try await client.activeAlert(nil) == nil)
        await #expect(throws: DomainError.notFound("Active alert")) { try await client.cancel(nil) }
    }

    @Test("the preview contacts stream delivers the preview's own changes")
    func previewContactsStream() async throws {
        let client = ContactsClient.previewValue
        var lists = try await client.stream().makeAsyncIterator()
        let joe = try await client.contacts().contacts[1]
        _ = try await client.updateRoles(joe.id, .both)
        #expect(try await lists.next()?.contacts.map(\.roles) == [.responder, .both])
        let maya = try await client.contacts().contacts[0]
        _ = try await client.updateRoles(maya.id, .both)
        #expect(try await lists.next()?.sentRoleRequests.map(\.ownerID) == [maya.id])
        try await client.remove(joe.id)
        #expect(try await lists.next()?.contacts.map(\.name) == ["Maya Lopez"])
        let invitation = try await client.invite(try PhoneNumber("+15550100009"), .responder)
        #expect(try await lists.next()?.sentInvitations == [invitation])
    }

    @Test("the preview alert stream: raised, then nil once cancelled")
    func previewAlertStream() async throws {
        let client = AlertClient.previewValue
        var alerts = try await client.stream().makeAsyncIterator()
        let alert = try await client.trigger()
        #expect(try await alerts.next() == .some(alert))
        try await client.cancel(nil)
        #expect(try await alerts.next() == .some(nil))
    }

    @Test("the preview pings: one waiting from Maya, pinging and answering change both lists and the stream")
    func previewPings() async throws {
        let client = PingClient.previewValue
        var changes = try await client.stream().makeAsyncIterator()
        let maya = try #require(try await client.pending().first)
        #expect(maya.name == "Maya Lopez" && maya.incomingPingAt != nil)
        #expect(try await client.sent().isEmpty)

        let joe = try await ContactsClient.previewValue.contacts().contacts[1]
        _ = try await client.ping(joe.id)
        let pinged = try #require(try await changes.next())
        #expect(pinged.sent.map(\.name) == ["Grandpa Joe"] && pinged.sent.first?.outgoingPingAt != nil)
        #expect(try await client.sent() == pinged.sent)

        #expect(try await client.respondToAll() == 1)
        #expect(try await changes.next()?.pending.isEmpty == true)
        #expect(try await client.respondToAll() == 0)
        try await client.clear(joe.id)
        #expect(try await changes.next() == PingList())
        #expect(try await client.pending().isEmpty)
        #expect(try await client.sent().isEmpty)
    }

    @Test("pings are read from the contact list: incoming ones pending, outgoing ones sent")
    func pingListFromContacts() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let responder = ContactSummary(id: UserID(UUID()), name: "R", phone: "+15550100001", roles: .responder, addedAt: now, incomingPingAt: now)
        let dependent = ContactSummary(id: UserID(UUID()), name: "D", phone: "+15550100002", roles: .dependent, addedAt: now, outgoingPingAt: now)
        let quiet = ContactSummary(id: UserID(UUID()), name: "Q", phone: "+15550100003", roles: .both, addedAt: now)
        #expect(PingList(ContactList(contacts: [quiet, dependent, responder])) == PingList(pending: [responder], sent: [dependent]))
    }
}
