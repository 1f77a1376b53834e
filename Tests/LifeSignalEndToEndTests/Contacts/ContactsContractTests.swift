import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `ContactsClient`'s promises on every adapter: in-process on SQLite, and over HTTP to
/// `lifesignal serve` on SQLite and on PostgreSQL.
@Suite("ContactsClient contract", .serialized)
struct ContactsContractTests {
    @Test(
        "linking by QR code is mirrored on both sides; a code links one person while it lives; roles change and removal", arguments: AdapterBackend.withFirebase
    )
    func qrLinkRolesAndRemoval(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceContacts
        let bob = harness.bobContacts
        let aliceID = UserID(harness.aliceID)
        let bobID = UserID(harness.bobID)

        // The code Alice's screen shows: the same until it is used or expires, 10 minutes.
        let code = try await alice.qrCode()
        #expect(code.expiresAt == harness.test.clock.now.addingTimeInterval(600))
        #expect(try await alice.qrCode() == code)
        let owner = try await bob.lookUpQRCode(code.id)
        #expect(owner == QRCodeOwner(userID: aliceID, name: AdapterHarness.alicePhone))
        // Bob scans Alice's code: Alice becomes his responder, so he is her dependent.
        let added = try await bob.addByQRCode(code.id, .responder)
        #expect(added.id == aliceID && added.roles == .responder && added.phone == AdapterHarness.alicePhone)
        #expect(try await bob.contacts().contacts == [added])
        let mirrored = try #require(try await alice.contacts().contacts.first)
        #expect(mirrored.id == bobID && mirrored.roles == .dependent)
        #expect(mirrored.checkInIntervalSeconds == 86400 && mirrored.lastCheckIn == nil)

        // Used once, the code links nobody else, and Alice's screen gets a new one.
        await #expect(throws: DomainError.notFound("QR code")) { try await bob.lookUpQRCode(code.id) }
        await #expect(throws: DomainError.notFound("QR code")) { try await bob.addByQRCode(code.id, .dependent) }
        let next = try await alice.qrCode()
        #expect(next.id != code.id)
        await #expect(throws: DomainError.alreadyExists("Contact \(aliceID)")) { try await bob.addByQRCode(next.id, .dependent) }
        await #expect(throws: DomainError.invalidArgument("You cannot add yourself as a contact")) { try await alice.addByQRCode(next.id, .both) }
        // A reset code stops working at once; an expired one too.
        let fresh = try await alice.resetQRCode()
        #expect(fresh.id != next.id && fresh.expiresAt == harness.test.clock.now.addingTimeInterval(600))
        await #expect(throws: DomainError.notFound("QR code")) { try await bob.lookUpQRCode(next.id) }
        #expect(try await bob.lookUpQRCode(fresh.id).userID == aliceID)
        harness.test.clock.advance(by: 601)
        await #expect(throws: DomainError.notFound("QR code")) { try await bob.lookUpQRCode(fresh.id) }
        let renewed = try await alice.qrCode()
        #expect(renewed.id != fresh.id && renewed.expiresAt == harness.test.clock.now.addingTimeInterval(600))

        // Making Bob her responder opens Alice's own check-ins: no one else's consent needed.
        let both = try await alice.updateRoles(bobID, .both)
        #expect(both.contact.roles == .both && both.pendingRequest == nil)
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
        let alice = harness.aliceContacts
        let bob = harness.bobContacts
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

    @Test(
        "the contact list stream follows a link, a dependent's check-in and alert, pings, a role request and its answer, and removal",
        arguments: AdapterBackend.withFirebase)
    func stream(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let bob = harness.bobClients
        let aliceID = UserID(harness.aliceID)
        let bobID = UserID(harness.bobID)
        let lists = try await alice.contacts.stream()

        // Bob scans Alice's code: he is her dependent.
        _ = try await bob.contacts.addByQRCode(try await alice.contacts.qrCode().id, .responder)
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

        // Bob becomes Alice's responder too: it waits for her consent, and both the request
        // and her answer reach her stream.
        let asked = try #require(try await bob.contacts.updateRoles(aliceID, .both).pendingRequest)
        _ = try #require(
            try await Self.first(on: lists) { $0.receivedRoleRequests.map(\.id) == [asked.id] }, "the role request did not reach the stream")
        _ = try await alice.contacts.acceptRoleRequest(asked.id)
        _ = try #require(
            try await Self.first(on: lists) { $0.contacts.map(\.roles) == [.both] && $0.receivedRoleRequests.isEmpty },
            "the accepted request did not reach the stream")
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
        let code = try await harness.aliceContacts.qrCode().id
        let visitor = harness.visitorContacts
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.qrCode() }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.acceptRoleRequest(UUID()) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.contacts() }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.lookUpQRCode(code) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.addByQRCode(code, .responder) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.stream() }
    }
}
