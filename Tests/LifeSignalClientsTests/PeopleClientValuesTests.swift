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
    }

    @Test("the preview contacts: a responder and a dependent; roles change, removal, invitations")
    func previewContacts() async throws {
        let client = ContactsClient.previewValue
        let list = try await client.contacts()
        #expect(list.contacts.map(\.name) == ["Maya Lopez", "Grandpa Joe"])
        #expect(list.contacts.map(\.roles) == [.responder, .dependent])
        let joe = list.contacts[1]
        #expect(joe.deadline == joe.lastCheckIn?.addingTimeInterval(86400))
        #expect(try await client.updateRoles(joe.id, .both).roles == .both)
        try await client.remove(joe.id)
        await #expect(throws: DomainError.notFound("Contact \(joe.id)")) { try await client.remove(joe.id) }
        let invitation = try await client.invite(try PhoneNumber("+15550100009"), .responder)
        #expect(try await client.contacts().sentInvitations == [invitation])
        let first = try await client.resetQRCode(), second = try await client.resetQRCode()
        #expect(first != second)
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
}
