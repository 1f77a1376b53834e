import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `ContactsClient`'s consent promises on every adapter (docs/security.md, "Consent"): becoming
/// someone's responder waits for them as a role request, which they accept or decline and the
/// requester may withdraw; dropping a role is one-sided. In-process on SQLite, over HTTP to
/// `lifesignal serve` on SQLite and PostgreSQL, and through Firebase callables.
@Suite("ContactsClient contract: consent", .serialized)
struct ContactsConsentContractTests {
    /// Alice and Bob linked by Bob scanning Alice's code: Alice is Bob's responder.
    static func linked(_ harness: AdapterHarness) async throws {
        _ = try await harness.bobContacts.addByQRCode(try await harness.aliceContacts.qrCode().id, .responder)
    }

    @Test("becoming a contact's responder waits for their consent; they accept, decline, or the requester withdraws", arguments: AdapterBackend.withFirebase)
    func roleRequests(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await Self.linked(harness)
        let alice = harness.aliceContacts
        let bob = harness.bobContacts
        let aliceID = UserID(harness.aliceID)
        let bobID = UserID(harness.bobID)

        // Bob asks to become Alice's responder too: nothing of hers opens until she says yes.
        let asked = try await bob.updateRoles(aliceID, .both)
        #expect(asked.contact.id == aliceID && asked.contact.roles == .responder)
        let request = try #require(asked.pendingRequest)
        #expect(request.requesterID == bobID && request.ownerID == aliceID)
        #expect(request.requesterName == AdapterHarness.bobPhone && request.ownerName == AdapterHarness.alicePhone)
        #expect(request.createdAt == harness.test.clock.now)
        #expect(try await bob.contacts().sentRoleRequests == [request])
        #expect(try await bob.contacts().receivedRoleRequests.isEmpty)
        #expect(try await alice.contacts().receivedRoleRequests == [request])
        #expect(try await alice.contacts().contacts.map(\.roles) == [.dependent])
        // Asking again answers the same request.
        #expect(try await bob.updateRoles(aliceID, .both).pendingRequest == request)

        // Only Alice answers it, only Bob withdraws it; to anyone else it is as unknown as a
        // made-up id.
        let unknown = await Self.failure { _ = try await alice.acceptRoleRequest(UUID()) }
        #expect(unknown == .notFound("Role request"))
        #expect(await Self.failure { _ = try await bob.acceptRoleRequest(request.id) } == unknown)
        #expect(await Self.failure { try await bob.declineRoleRequest(request.id) } == unknown)
        #expect(await Self.failure { try await alice.cancelRoleRequest(request.id) } == unknown)

        try await alice.declineRoleRequest(request.id)
        #expect(try await alice.contacts().receivedRoleRequests.isEmpty)
        #expect(try await bob.contacts().sentRoleRequests.isEmpty)
        #expect(try await bob.contacts().contacts.map(\.roles) == [.responder])

        let again = try #require(try await bob.updateRoles(aliceID, .both).pendingRequest)
        #expect(again.id != request.id)
        try await bob.cancelRoleRequest(again.id)
        #expect(try await alice.contacts().receivedRoleRequests.isEmpty)
        #expect(await Self.failure { _ = try await alice.acceptRoleRequest(again.id) } == unknown)

        let third = try #require(try await bob.updateRoles(aliceID, .both).pendingRequest)
        let accepted = try await alice.acceptRoleRequest(third.id)
        #expect(accepted.id == bobID && accepted.roles == .both)
        #expect(try await alice.contacts().contacts == [accepted])
        #expect(try await bob.contacts().contacts.map(\.roles) == [.both])
        #expect(try await bob.contacts().sentRoleRequests.isEmpty)

        // Dropping a role needs nobody's consent: Bob stops being Alice's responder at once.
        let dropped = try await bob.updateRoles(aliceID, .responder)
        #expect(dropped.contact.roles == .responder && dropped.pendingRequest == nil)
        #expect(try await alice.contacts().contacts.map(\.roles) == [.dependent])
    }

    @Test("a request goes with the contact: removing either side ends it", arguments: AdapterBackend.withFirebase)
    func removalEndsRequests(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await Self.linked(harness)
        let alice = harness.aliceContacts
        let bob = harness.bobContacts
        let request = try #require(try await bob.updateRoles(UserID(harness.aliceID), .both).pendingRequest)
        try await alice.remove(UserID(harness.bobID))
        #expect(try await alice.contacts() == ContactList(contacts: []))
        #expect(try await bob.contacts() == ContactList(contacts: []))
        #expect(await Self.failure { _ = try await alice.acceptRoleRequest(request.id) } == .notFound("Role request"))
    }

    @Test("the owner's contact list stream hears a role request arrive and its withdrawal, which tells no one", arguments: AdapterBackend.withFirebase)
    func streamHearsWithdrawal(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await Self.linked(harness)
        let lists = try await harness.aliceContacts.stream()
        let request = try #require(try await harness.bobContacts.updateRoles(UserID(harness.aliceID), .both).pendingRequest)
        _ = try #require(
            try await ContactsContractTests.first(on: lists) { $0.receivedRoleRequests == [request] }, "the request did not reach the stream")
        // No notification goes with a withdrawal: only the request's own change can bring it.
        try await harness.bobContacts.cancelRoleRequest(request.id)
        _ = try #require(
            try await ContactsContractTests.first(on: lists) { $0.receivedRoleRequests.isEmpty }, "the withdrawal did not reach the stream")
    }

    /// The domain error `operation` throws, or `nil` when it succeeds.
    static func failure(_ operation: () async throws -> Void) async -> DomainError? {
        do {
            try await operation()
            return nil
        } catch {
            return error as? DomainError ?? .internal("\(error)")
        }
    }
}
