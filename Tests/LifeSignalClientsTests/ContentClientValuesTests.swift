import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@Suite("Content client values")
struct ContentClientValuesTests {
    @Test("the test value fails any call a test did not override")
    func testValueIsUnimplemented() async throws {
        let client = ContentClient.testValue
        await withKnownIssue { _ = try await client.locations(ContentFilter()) }
        await withKnownIssue { _ = try await client.saveEvent(.init(name: "E")) }
        await withKnownIssue { try await client.deleteRoute(UUID()) }
    }

    @Test("the preview value follows the contract: search, status, order, upsert, soft delete")
    func previewFollowsContract() async throws {
        let client = ContentClient.previewValue
        let all = try await client.locations(ContentFilter())
        #expect(all.map(\.name) == ["Fiddletown Cellars", "Old Sugar Mill"])
        #expect(try await client.locations(ContentFilter(search: "  ")).count == 2)
        #expect(try await client.locations(ContentFilter(search: "SUGAR")).map(\.name) == ["Old Sugar Mill"])
        #expect(try await client.locations(ContentFilter(status: .published)).map(\.name) == ["Fiddletown Cellars"])
        #expect(all[0].websiteURL == "https://fiddletowncellars.example")

        let created = try await client.saveLocation(.init(name: "Amador Flower Farm", sortOrder: 0))
        #expect(created.slug == "amador-flower-farm")
        #expect(try await client.locations(ContentFilter()).first == created)
        var draft = created.draft
        draft.name = "Amador Farm"
        let updated = try await client.saveLocation(draft)
        #expect(updated.id == created.id && updated.name == "Amador Farm" && updated.createdAt == created.createdAt)
        try await client.deleteLocation(created.id)
        #expect(try await client.locations(ContentFilter()).map(\.name) == ["Fiddletown Cellars", "Old Sugar Mill"])
        await #expect(throws: DomainError.notFound("Location \(created.id)")) { try await client.deleteLocation(created.id) }

        let september = try CalendarDay("2027-09-01")
        #expect(try await client.events(EventFilter(from: september)).map(\.name) == ["Harvest Festival"])
        #expect(try await client.events(EventFilter(to: september)).isEmpty)
        #expect(try await client.routes(ContentFilter(search: "loop")).map(\.difficulty) == [.moderate])
    }
}
