import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Pings")
struct PingsTests {
    @Test("only a responder pings a dependent; both sides see the ping; a repeat is a duplicate", arguments: Engine.allCases)
    func ping(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let eve = try await test.person("+15550000009", "Eve")
        try await test.link(responder: bob, dependent: ann)
        let reply = try await test.call("ping-dependent", bob, ["dependentId": ann.userID.description])
        #expect(reply["pingId"] is String)
        #expect(try await test.contact(ann.userID, of: bob)?.outgoingPingAt == test.clock.now)
        #expect(try await test.contact(bob.userID, of: ann)?.incomingPingAt == test.clock.now)
        #expect(try await test.notifications(ann, .pingReceived).first?.body == "Bob Tester is checking on you.")
        #expect(try await test.notifications(bob, .pingSent).count == 1)
        await #expect(throws: DomainError.alreadyExists("A pending ping to this contact")) {
            try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        }
        await #expect(throws: DomainError.forbidden("Only a responder can ping; this contact is not your dependent")) {
            try await test.backend.pings.ping(caller: ann, dependent: bob.userID)
        }
        await #expect(throws: DomainError.notFound("Contact \(ann.userID)")) { try await test.backend.pings.ping(caller: eve, dependent: ann.userID) }
        await #expect(throws: DomainError.invalidArgument("dependentId must be a UUID, not \"nope\"")) {
            try await test.call("ping-dependent", bob, ["dependentId": "nope"])
        }
        #expect(try await test.count("pings") == 1)
    }

    @Test("several responders ping; respond-to-all answers every ping and clears the senders' side", arguments: Engine.allCases)
    func respondToAll(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        try await test.backend.pings.ping(caller: cat, dependent: ann.userID)
        #expect(try await test.backend.contacts.contacts(caller: ann).contacts.filter { $0.incomingPingAt != nil }.count == 2)
        let reply = try await test.call("respond-to-all-pings", ann)
        #expect(reply["respondedCount"] as? Int == 2)
        for responder in [bob, cat] {
            #expect(try await test.contact(ann.userID, of: responder)?.outgoingPingAt == nil)
            #expect(try await test.notifications(responder, .pingResponded).count == 1)
        }
        #expect(try await test.backend.contacts.contacts(caller: ann).contacts.allSatisfy { $0.incomingPingAt == nil })
        #expect(try await test.backend.pings.respondToAll(caller: ann) == 0)
    }

    @Test("respond-to-ping answers one sender; clear-ping withdraws; none pending is not found", arguments: Engine.allCases)
    func respondAndClear(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        await #expect(throws: DomainError.notFound("Pending ping")) { try await test.backend.pings.respond(caller: ann, to: bob.userID) }
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        try await test.backend.pings.ping(caller: cat, dependent: ann.userID)
        _ = try await test.call("respond-to-ping", ann, ["responderId": bob.userID.description])
        #expect(try await test.contact(ann.userID, of: bob)?.outgoingPingAt == nil)
        #expect(try await test.contact(ann.userID, of: cat)?.outgoingPingAt != nil)
        await #expect(throws: DomainError.notFound("Pending ping")) { try await test.backend.pings.respond(caller: ann, to: bob.userID) }
        _ = try await test.call("clear-ping", cat, ["dependentId": ann.userID.description])
        #expect(try await test.contact(cat.userID, of: ann)?.incomingPingAt == nil)
        #expect(try await test.notifications(ann, .pingCancelled).count == 1)
        await #expect(throws: DomainError.notFound("Pending ping")) { try await test.backend.pings.clear(caller: cat, dependent: ann.userID) }
        // Only the sender can clear: Ann cannot clear Bob's new ping as if she had sent it.
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        await #expect(throws: DomainError.notFound("Pending ping")) { try await test.backend.pings.clear(caller: ann, dependent: bob.userID) }
        #expect(
            try await test.backend.database.query("SELECT status FROM pings ORDER BY sent_at, status").map { try $0.string("status") }
                .sorted() == ["cancelled", "pending", "responded"])
    }
}
