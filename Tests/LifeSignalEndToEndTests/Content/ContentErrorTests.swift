import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The contract's last requirement, and its access rules and pagination, on every adapter.
@Suite("ContentClient contract (seed 004): errors, access, paging", .serialized)
struct ContentErrorTests {
    @Test("Error handling provides useful error messages", arguments: AdapterBackend.withFirebase)
    func errorMessages(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let mine = try await harness.alice.saveLocation(.init(name: "Alice's Place"))

        // Signing in is needed to write.
        await #expect(throws: DomainError.unauthenticated) { try await harness.visitor.saveLocation(.init(name: "Anon")) }
        await #expect(throws: DomainError.unauthenticated) { try await harness.visitor.deleteLocation(mine.id) }
        // Only the creator changes or deletes.
        var stolen = mine.draft
        stolen.name = "Bob's Now"
        await #expect(throws: ContentRules.notCreator(.locations)) { try await harness.bob.saveLocation(stolen) }
        await #expect(throws: ContentRules.notCreator(.locations)) { try await harness.bob.deleteLocation(mine.id) }
        #expect(ContentRules.notCreator(.locations).message == "Only the person who created this location may change or delete it")
        // Slugs are unique, deleted records included.
        let taken = DomainError.alreadyExists("A location with the slug \"alice-s-place\"")
        await #expect(throws: taken) { try await harness.bob.saveLocation(.init(name: "Alice's   place")) }
        #expect(taken.message == "A location with the slug \"alice-s-place\" already exists")
        // Drafts that cannot be stored, each with a sentence that says why.
        let invalid: [(Location.Draft, String)] = [
            (.init(name: "   "), "A name is required"),
            (.init(name: "!!!"), "\"!!!\" has no letters or digits to make a slug from; give a slug"),
            (.init(name: "Ftp", websiteURL: "ftp://files.example"), "\"ftp://files.example\" is not a web address (http or https)"),
            (.init(name: "Big", sortOrder: Int(Int32.max) + 1), "A sort order is a whole number between -2147483648 and 2147483647, not 2147483648"),
        ]
        for (draft, message) in invalid {
            await #expect(throws: DomainError.invalidArgument(message)) { try await harness.alice.saveLocation(draft) }
        }
        await #expect(throws: DomainError.invalidArgument("The event ends (2027-01-01) before it starts (2027-01-02)")) {
            try await harness.alice.saveEvent(.init(name: "Backwards", startDate: try CalendarDay("2027-01-02"), endDate: try CalendarDay("2027-01-01")))
        }
        await #expect(throws: DomainError.invalidArgument("\"25:00\" is not a time of day (HH:MM or HH:MM:SS)")) {
            try await harness.alice.saveEvent(.init(name: "Late", startTime: "25:00"))
        }
        await #expect(throws: DomainError.invalidArgument("A route's duration is 0 minutes or more, not -5")) {
            try await harness.alice.saveRoute(.init(name: "Negative", durationMinutes: -5))
        }
        // Nothing of the refused writes landed.
        #expect(try await harness.draftReader.locations(ContentFilter()) == [mine])
        #expect(try await harness.test.count("locations") == 1)
        #expect(try await harness.test.count("events") == 0)
        #expect(try await harness.test.count("routes") == 0)
    }

    @Test("More than 1,000 records are read in full, in order, page by page", arguments: AdapterBackend.withFirebase)
    func pagingBeyondOneThousand(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let total = 1_234
        let owner = harness.aliceID
        try await harness.test.backend.database.transaction { connection in
            for index in 0..<total {
                // Few distinct sort orders and names, so the id decides many ties.
                let name = "Place \(index % 7)"
                try await connection.query(
                    """
                    INSERT INTO locations (id, name, slug, sort_order, created_by)
                    VALUES (\(SQLValue.uuid(UUID())), \(name), \("place-\(index)"), \(index % 3), \(SQLValue.uuid(owner)))
                    """)
            }
        }
        let all = try await harness.draftReader.locations(ContentFilter())
        #expect(all.count == total)
        #expect(Set(all.map(\.id)).count == total)
        #expect(all == ContentRules.sorted(all))
        #expect(try await harness.draftReader.locations(ContentFilter(search: "place 3")).count == (0..<total).filter { $0 % 7 == 3 }.count)
    }
}
