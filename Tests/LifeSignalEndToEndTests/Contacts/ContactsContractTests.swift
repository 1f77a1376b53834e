import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// `ContactsClient`'s promises on every adapter: in-process on SQLite, and over HTTP to
/// `lifesignal serve` on SQLite and on PostgreSQL.
@Suite("ContactsClient contract", .serialized)
struct ContactsContractTests {
    @Test("linking by QR code is mirrored on both sides; roles change and removal are too", arguments: AdapterBackend.withFirebase)
    func qrLinkRolesAndRemoval(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceContacts, bob = harness.bobContacts
        let aliceID = UserID(harness.aliceID), bobID = UserID(harness.bobID)

        let code = try await alice.resetQRCode()
        let owner = try await bob.lookUpQRCode(code)
        #expect(owner == QRCodeOwner(userID: aliceID, name: AdapterHarness.alicePhone))
        // Bob scans Alice's code: Alice becomes his responder, so he is her dependent.
        let added = try await bob.addByQRCode(code, .responder)
        #expect(added.id == aliceID && added.roles == .responder && added.phone == AdapterHarness.alicePhone)
        #expect(try await bob.contacts().contacts == [added])
        let mirrored = try #require(try await alice.contacts().contacts.first)
        #expect(mirrored.id == bobID && mirrored.roles == .dependent)
        #expect(mirrored.checkInIntervalSeconds == 86400 && mirrored.lastCheckIn == nil)

        await #expect(throws: DomainError.alreadyExists("Contact \(aliceID)")) { try await bob.addByQRCode(code, .dependent) }
        await #expect(throws: DomainError.invalidArgument("You cannot add yourself as a contact")) { try await alice.addByQRCode(code, .both) }
        // A reset code stops working.
        let fresh = try await alice.resetQRCode()
        #expect(fresh != code)
        await #expect(throws: DomainError.notFound("QR code")) { try await bob.lookUpQRCode(code) }

        let both = try await alice.updateRoles(bobID, .both)
        #expect(both.roles == .both)
        #expect(try await bob.contacts().contacts.map(\.roles) == [.both])
        try await bob.remove(aliceID)
        #expect(try await alice.contacts().contacts.isEmpty)
        #expect(try await bob.contacts().contacts.isEmpty)
        await #expect(throws: DomainError.self) { try await bob.updateRoles(aliceID, .responder) }
    }

    @Test("phone invitations: sent, seen by the invitee, declined or accepted into a mirrored link", arguments: AdapterBackend.withFirebase)
    func invitations(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceContacts, bob = harness.bobContacts
        let alicePhone = try PhoneNumber(AdapterHarness.alicePhone)

        let first = try await bob.invite(alicePhone, .dependent)
        #expect(first.inviterID == UserID(harness.bobID) && first.inviteePhone == alicePhone.e164)
        #expect(first.roles == .dependent && first.status == .pending && first.inviterName == AdapterHarness.bobPhone)
        #expect(try await bob.contacts().sentInvitations == [first])
        #expect(try await alice.contacts().receivedInvitations == [first])
        await #expect(throws: DomainError.alreadyExists("A pending invitation to \(alicePhone.e164)")) { try await bob.invite(alicePhone, .both) }
        await #expect(throws: DomainError.invalidArgument("You cannot invite yourself")) { try await alice.invite(alicePhone, .both) }

        try await alice.declineInvitation(first.id)
        #expect(try await alice.contacts().receivedInvitations.isEmpty)
        await #expect(throws: DomainError.self) { try await alice.acceptInvitation(first.id) }

        let second = try await bob.invite(alicePhone, .dependent)
        // Only the invitee may answer.
        await #expect(throws: DomainError.self) { try await bob.acceptInvitation(second.id) }
        let contact = try await alice.acceptInvitation(second.id)
        #expect(contact.id == UserID(harness.bobID) && contact.roles == .responder)
        #expect(try await bob.contacts().contacts.map(\.roles) == [.dependent])
        #expect(try await bob.contacts().sentInvitations.isEmpty)
    }

    @Test("the contact list stream follows a link, a dependent's check-in and alert, pings, roles and removal", arguments: AdapterBackend.withFirebase)
    func stream(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients, bob = harness.bobClients
        let aliceID = UserID(harness.aliceID), bobID = UserID(harness.bobID)
        let lists = try await alice.contacts.stream()

        // Bob scans Alice's code: he is her dependent.
        _ = try await bob.contacts.addByQRCode(try await alice.contacts.resetQRCode(), .responder)
        let linked = try #require(try await Self.first(on: lists) { $0.contacts.map(\.id) == [bobID] }, "the link did not reach the stream")
        #expect(linked.contacts.first?.roles == .dependent && linked.contacts.first?.lastCheckIn == nil)

        harness.test.clock.advance(by: 60)
        let checkIn = try await bob.checkIns.checkIn()
        let checkedIn = try #require(
            try await Self.first(on: lists) { $0.contacts.first?.lastCheckIn != nil }, "the dependent's check-in did not reach the stream")
        #expect(checkedIn.contacts.first?.lastCheckIn == checkIn.checkedInAt && checkedIn.contacts.first?.deadline != nil)

        let alert = try await bob.alerts.trigger()
        _ = try #require(
            try await Self.first(on: lists) { $0.contacts.first?.activeAlertID == alert.id }, "the dependent's alert did not reach the stream")
        _ = try await alice.pings.ping(bobID)
        _ = try #require(try await Self.first(on: lists) { $0.contacts.first?.outgoingPingAt != nil }, "my ping did not reach the stream")

        _ = try await bob.contacts.updateRoles(aliceID, .both)
        _ = try #require(try await Self.first(on: lists) { $0.contacts.map(\.roles) == [.both] }, "the roles change did not reach the stream")
        try await bob.contacts.remove(aliceID)
        _ = try #require(try await Self.first(on: lists) { $0.contacts.isEmpty }, "the removal did not reach the stream")
    }

    /// The first element of a stream that `accept` takes, or `nil` after `seconds`.
    static func first<Element: Sendable>(
        on stream: AsyncThrowingStream<Element, any Error>, within seconds: Double = streamPatience,
        where accept: @escaping @Sendable (Element) -> Bool
    ) async throws -> Element? {
        try await firstElement(of: stream, within: seconds, where: accept)
    }

    @Test("nothing works signed out", arguments: [AdapterBackend.local, .supabaseSQLite, .firebase])
    func signedOut(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let code = try await harness.aliceContacts.resetQRCode()
        let visitor = harness.visitorContacts
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.contacts() }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.lookUpQRCode(code) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.addByQRCode(code, .responder) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.stream() }
    }
}
