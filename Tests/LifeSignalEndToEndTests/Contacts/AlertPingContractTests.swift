import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `AlertClient` and `PingClient` on every adapter, between a dependent (Bob) and his
/// responder (Alice), linked by QR code first.
@Suite("AlertClient and PingClient contract", .serialized)
struct AlertPingContractTests {
    /// Bob scans Alice's code and makes her his responder.
    static func link(_ harness: AdapterHarness) async throws {
        let code = try await harness.aliceClients.contacts.qrCode().id
        _ = try await harness.bobClients.contacts.addByQRCode(code, .responder)
    }

    @Test("SOS: raised once, seen and answered by the responder, cancelled", arguments: AdapterBackend.withFirebase)
    func sos(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await Self.link(harness)
        let bob = harness.bobClients
        let alice = harness.aliceClients
        let bobID = UserID(harness.bobID)
        let aliceID = UserID(harness.aliceID)

        #expect(try await bob.alerts.activeAlert(nil) == nil)
        let alert = try await bob.alerts.trigger()
        #expect(alert.userID == bobID && alert.status == .active && alert.responses.isEmpty)
        await #expect(throws: DomainError.self) { try await bob.alerts.trigger() }
        #expect(try await bob.alerts.activeAlert(nil) == alert)
        // The responder sees it on the contact and by asking for it.
        let contact = try #require(try await alice.contacts.contacts().contacts.first)
        #expect(contact.activeAlertID == alert.id)
        #expect(try await alice.alerts.activeAlert(bobID)?.id == alert.id)
        let respondedAt = try await alice.alerts.respond(alert.id)
        let answered = try #require(try await bob.alerts.activeAlert(nil))
        #expect(answered.responses == [AlertResponse(responderID: aliceID, responderName: AdapterHarness.alicePhone, respondedAt: respondedAt)])
        // Nobody else's alert is readable.
        await #expect(throws: DomainError.self) { _ = try await bob.alerts.activeAlert(aliceID) }

        try await bob.alerts.cancel(nil)
        #expect(try await bob.alerts.activeAlert(nil) == nil)
        #expect(try await alice.contacts.contacts().contacts.first?.activeAlertID == nil)
        await #expect(throws: DomainError.self) { try await bob.alerts.cancel(alert.id) }
    }

    @Test("pings: sent by the responder, shown both ways, answered one or all, cleared", arguments: AdapterBackend.withFirebase)
    func pings(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await Self.link(harness)
        let bob = harness.bobClients
        let alice = harness.aliceClients
        let bobID = UserID(harness.bobID)
        let aliceID = UserID(harness.aliceID)

        _ = try await alice.pings.ping(bobID)
        #expect(try await alice.contacts.contacts().contacts.first?.outgoingPingAt != nil)
        #expect(try await bob.contacts.contacts().contacts.first?.incomingPingAt != nil)
        // Only a responder pings, and only their dependents.
        await #expect(throws: DomainError.self) { _ = try await bob.pings.ping(aliceID) }
        try await bob.pings.respond(aliceID)
        #expect(try await bob.contacts.contacts().contacts.first?.incomingPingAt == nil)
        #expect(try await alice.contacts.contacts().contacts.first?.outgoingPingAt == nil)

        _ = try await alice.pings.ping(bobID)
        #expect(try await bob.pings.respondToAll() == 1)
        #expect(try await bob.pings.respondToAll() == 0)

        _ = try await alice.pings.ping(bobID)
        try await alice.pings.clear(bobID)
        #expect(try await bob.contacts.contacts().contacts.first?.incomingPingAt == nil)
    }

    @Test("my alert's stream: raised, answered by the responder, cancelled", arguments: AdapterBackend.withFirebase)
    func alertStream(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await Self.link(harness)
        let bob = harness.bobClients
        let alice = harness.aliceClients
        let aliceID = UserID(harness.aliceID)
        let alerts = try await bob.alerts.stream()

        let alert = try await bob.alerts.trigger()
        let raised = try #require(try await ContactsContractTests.first(on: alerts) { $0?.id == alert.id }, "the alert did not reach the stream")
        #expect(raised == alert)
        let respondedAt = try await alice.alerts.respond(alert.id)
        let answered = try #require(
            try await ContactsContractTests.first(on: alerts) { $0?.responses.isEmpty == false }, "the response did not reach the stream")
        #expect(answered?.responses.map(\.responderID) == [aliceID] && answered?.responses.first?.respondedAt == respondedAt)
        try await bob.alerts.cancel(nil)
        let cancelled = try await ContactsContractTests.first(on: alerts) { $0 == nil }
        #expect(cancelled == .some(nil), "the cancellation did not reach the stream")
    }

    @Test("pings pending and sent, read from the contact list and streamed on both sides", arguments: AdapterBackend.withFirebase)
    func pingLists(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await Self.link(harness)
        let bob = harness.bobClients
        let alice = harness.aliceClients
        let bobID = UserID(harness.bobID)
        let aliceID = UserID(harness.aliceID)
        let bobPings = try await bob.pings.stream()
        let alicePings = try await alice.pings.stream()
        #expect(try await bob.pings.pending().isEmpty)
        #expect(try await alice.pings.sent().isEmpty)

        _ = try await alice.pings.ping(bobID)
        #expect(try await bob.pings.pending().map(\.id) == [aliceID])
        #expect(try await alice.pings.sent().map(\.id) == [bobID])
        #expect(try await bob.pings.sent().isEmpty)
        #expect(try await alice.pings.pending().isEmpty)
        let waiting = try #require(
            try await ContactsContractTests.first(on: bobPings) { !$0.pending.isEmpty }, "the ping did not reach the dependent's stream")
        #expect(waiting.pending.map(\.id) == [aliceID] && waiting.sent.isEmpty)
        _ = try #require(
            try await ContactsContractTests.first(on: alicePings) { $0.sent.map(\.id) == [bobID] }, "the ping did not reach the responder's stream")

        try await bob.pings.respond(aliceID)
        #expect(try await bob.pings.pending().isEmpty)
        #expect(try await alice.pings.sent().isEmpty)
        _ = try #require(try await ContactsContractTests.first(on: bobPings) { $0.pending.isEmpty }, "the answer did not reach the dependent's stream")
        _ = try #require(try await ContactsContractTests.first(on: alicePings) { $0.sent.isEmpty }, "the answer did not reach the responder's stream")
    }
}
