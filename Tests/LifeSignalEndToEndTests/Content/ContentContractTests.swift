import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Seed `004_…`'s "Testing Requirements", item by item and by name, run against every
/// adapter of `ContentClient`: in-process on SQLite, over HTTP to `lifesignal serve` on
/// SQLite and on PostgreSQL, and through Firebase callables replayed over SQLite.
@Suite("ContentClient contract (seed 004)", .serialized)
struct ContentContractTests {
    @Test("Fetch operations return non-deleted records only", arguments: AdapterBackend.withFirebase)
    func fetchNonDeletedOnly(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let kept = try await harness.alice.saveLocation(.init(name: "Kept Cellar"))
        let gone = try await harness.alice.saveLocation(.init(name: "Gone Cellar"))
        let keptEvent = try await harness.alice.saveEvent(.init(name: "Kept Fair"))
        let goneEvent = try await harness.alice.saveEvent(.init(name: "Gone Fair"))
        let keptRoute = try await harness.alice.saveRoute(.init(name: "Kept Loop"))
        let goneRoute = try await harness.alice.saveRoute(.init(name: "Gone Loop"))
        try await harness.alice.deleteLocation(gone.id)
        try await harness.alice.deleteEvent(goneEvent.id)
        try await harness.alice.deleteRoute(goneRoute.id)

        // Every reader sees the same, signed in or not, with and without other filters.
        for reader in [harness.alice, harness.bob, harness.draftReader] {
            #expect(try await reader.locations(ContentFilter()).map(\.id) == [kept.id])
            #expect(try await reader.locations(ContentFilter(search: "cellar")).map(\.id) == [kept.id])
            #expect(try await reader.events(EventFilter()).map(\.id) == [keptEvent.id])
            #expect(try await reader.routes(ContentFilter(status: .draft)).map(\.id) == [keptRoute.id])
        }
        // Over PostgREST a visitor reads only published rows: these are drafts.
        if harness.server != nil {
            #expect(try await harness.visitor.locations(ContentFilter()).isEmpty)
            #expect(try await harness.visitor.routes(ContentFilter()).isEmpty)
        }
        // Soft deletes keep the rows.
        #expect(try await harness.test.count("locations") == 2)
        #expect(try await harness.test.count("events") == 2)
        #expect(try await harness.test.count("routes") == 2)
    }

    @Test("Search filter works case-insensitively", arguments: AdapterBackend.withFirebase)
    func searchIsCaseInsensitive(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let names = ["Fiddletown Cellars", "Old Sugar Mill", "The Cellar Door", "50% Off Tasting", "500 Oaks", "Under_score Hall", "Underscore Hall"]
        var saved: [Location] = []
        for name in names { saved.append(try await harness.alice.saveLocation(.init(name: name))) }
        func search(_ term: String?) async throws -> Set<String> {
            Set(try await harness.draftReader.locations(ContentFilter(search: term)).map(\.name))
        }
        #expect(try await search("cellar") == ["Fiddletown Cellars", "The Cellar Door"])
        #expect(try await search("CELLARS") == ["Fiddletown Cellars"])
        #expect(try await search("sUGAR mIL") == ["Old Sugar Mill"])
        #expect(try await search("  sugar\n") == ["Old Sugar Mill"])
        // Blank terms apply no search.
        #expect(try await search("   ") == Set(names))
        #expect(try await search(nil) == Set(names))
        // LIKE's wildcards in a term are matched literally.
        #expect(try await search("50%") == ["50% Off Tasting"])
        #expect(try await search("under_") == ["Under_score Hall"])
        // Routes and events search by name the same way.
        _ = try await harness.alice.saveRoute(.init(name: "River WALK"))
        _ = try await harness.alice.saveEvent(.init(name: "Jazz on the Lawn"))
        #expect(try await harness.draftReader.routes(ContentFilter(search: "walk")).map(\.name) == ["River WALK"])
        #expect(try await harness.draftReader.events(EventFilter(search: "JAZZ")).map(\.name) == ["Jazz on the Lawn"])
        // Agrees with the domain's statement of the rule.
        for term in ["cellar", "OLD", "hall", "zzz"] {
            let expected = Set(saved.filter { ContentFilter(search: term).admits($0) }.map(\.name))
            #expect(try await search(term) == expected, "term \(term)")
        }
    }

    @Test("Date range filters work correctly", arguments: AdapterBackend.withFirebase)
    func dateRangeFilters(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        func day(_ text: String) throws -> CalendarDay { try CalendarDay(text) }
        let drafts: [Event.Draft] = [
            .init(name: "January Fair", startDate: try day("2027-01-10"), endDate: try day("2027-01-12")),
            .init(name: "February Opening", startDate: try day("2027-02-01")),
            .init(name: "Whenever Picnic"),
            .init(name: "New Year Run", startDate: try day("2026-12-20"), endDate: try day("2027-01-05")),
            .init(name: "December Market", startDate: try day("2026-12-01"), endDate: try day("2026-12-02")),
            .init(name: "First Day Toast", startDate: try day("2027-01-01")),
            .init(name: "Ends First Day", startDate: try day("2026-12-30"), endDate: try day("2027-01-01")),
        ]
        var events: [Event] = []
        for draft in drafts { events.append(try await harness.alice.saveEvent(draft)) }
        func names(_ filter: EventFilter) async throws -> Set<String> {
            Set(try await harness.draftReader.events(filter).map(\.name))
        }
        let from = try day("2027-01-01")
        let to = try day("2027-01-31")
        // from: starts or ends on/after it (inclusive), or undated.
        #expect(
            try await names(EventFilter(from: from))
                == ["January Fair", "February Opening", "Whenever Picnic", "New Year Run", "First Day Toast", "Ends First Day"])
        // to: starts on/before it (inclusive); undated events have no start to compare.
        #expect(
            try await names(EventFilter(to: to))
                == ["January Fair", "New Year Run", "December Market", "First Day Toast", "Ends First Day"])
        #expect(try await names(EventFilter(to: try day("2026-12-01"))) == ["December Market"])
        #expect(try await names(EventFilter(from: from, to: to)) == ["January Fair", "New Year Run", "First Day Toast", "Ends First Day"])
        // Combined with search and status, and agreeing with the domain's statement of the rule.
        #expect(try await names(EventFilter(search: "fair", from: from)) == ["January Fair"])
        #expect(try await names(EventFilter(status: .published, from: from)).isEmpty)
        for filter in [EventFilter(from: from), EventFilter(to: to), EventFilter(from: from, to: to), EventFilter(from: try day("2027-02-02"))] {
            #expect(try await names(filter) == Set(events.filter(filter.admits).map(\.name)))
        }
    }

    @Test("Sorting applies correctly (primary then secondary)", arguments: AdapterBackend.withFirebase)
    func sortingPrimaryThenSecondary(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        for (name, order) in [("apple", 2), ("zebra", 1), ("mango", 1), ("kiwi", -3), ("banana", 2)] {
            _ = try await harness.alice.saveLocation(.init(name: name, sortOrder: order))
            _ = try await harness.alice.saveRoute(.init(name: name, sortOrder: order))
        }
        let expected = ["kiwi", "mango", "zebra", "apple", "banana"]
        #expect(try await harness.draftReader.locations(ContentFilter()).map(\.name) == expected)
        #expect(try await harness.draftReader.routes(ContentFilter()).map(\.name) == expected)

        // Events: sort order, then start day (undated last), then name.
        let day = { (text: String) in try CalendarDay(text) }
        for (name, order, start) in [
            ("b", 1, "2027-03-01"), ("a", 1, "2027-05-01"), ("c", 0, "2027-09-01"),
            ("undated", 1, nil), ("d", 1, "2027-03-01"), ("e", 0, nil),
        ] as [(String, Int, String?)] {
            _ = try await harness.alice.saveEvent(.init(name: name, startDate: try start.map(day), sortOrder: order))
        }
        let events = try await harness.draftReader.events(EventFilter())
        #expect(events.map(\.name) == ["c", "e", "b", "d", "a", "undated"])
        #expect(events == ContentRules.sorted(events))
    }

    @Test("Create operations return the created record", arguments: AdapterBackend.withFirebase)
    func createReturnsRecord(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let location = try await harness.alice.saveLocation(
            .init(
                name: "  Café du Nord!  ", region: "Amador", shortDescription: "Tasting room",
                websiteURL: "cafedunord.example/visit", status: .published, sortOrder: 4))
        #expect(location.name == "Café du Nord!")
        #expect(location.slug == "cafe-du-nord")
        #expect(location.websiteURL == "https://cafedunord.example/visit")
        #expect(location.region == "Amador" && location.shortDescription == "Tasting room")
        #expect(location.status == .published && location.sortOrder == 4)
        #expect(location.createdBy == harness.aliceID)
        #expect(location.deletedAt == nil)
        #expect(try await harness.draftReader.locations(ContentFilter()) == [location])

        let event = try await harness.alice.saveEvent(
            .init(
                name: "Harvest Festival", slug: "Harvest 2027", startDate: try CalendarDay("2027-09-18"),
                endDate: try CalendarDay("2027-09-19"), startTime: "10:00", endTime: "17:30:00",
                keywords: ["wine", " music ", "", "family, kids"], status: .published))
        #expect(event.slug == "harvest-2027")
        #expect(try event.startDate == CalendarDay("2027-09-18") && event.endDate == CalendarDay("2027-09-19"))
        #expect(event.startTime == "10:00:00" && event.endTime == "17:30:00")
        #expect(event.keywords == ["wine", "music", "family, kids"])
        #expect(try await harness.draftReader.events(EventFilter()) == [event])

        let route = try await harness.alice.saveRoute(
            .init(
                name: "Valley Loop", gpxURL: "http://tracks.example/loop.gpx", durationMinutes: 120,
                startPoint: "Plymouth", endPoint: "Fiddletown", difficulty: .challenging))
        #expect(route.gpxURL == "http://tracks.example/loop.gpx" && route.durationMinutes == 120)
        #expect(route.difficulty == .challenging && route.status == .draft)
        #expect(try await harness.draftReader.routes(ContentFilter()) == [route])

        // An id the backend does not know creates the record under that id (the upsert rule).
        let chosen = UUID()
        let upserted = try await harness.alice.saveRoute(.init(id: chosen, name: "Chosen Id"))
        #expect(upserted.id == chosen && upserted.slug == "chosen-id")
    }

    @Test("Update operations return the updated record", arguments: AdapterBackend.withFirebase)
    func updateReturnsRecord(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let created = try await harness.alice.saveLocation(.init(name: "Old Name", region: "Amador", websiteURL: "old.example"))
        var draft = created.draft
        draft.name = "New Name"
        draft.slug = nil
        draft.region = nil
        draft.websiteURL = "HTTPS://new.example"
        draft.status = .archived
        let updated = try await harness.alice.saveLocation(draft)
        #expect(updated.id == created.id)
        #expect(updated.name == "New Name" && updated.slug == "new-name" && updated.region == nil)
        #expect(updated.websiteURL == "https://new.example" && updated.status == .archived)
        #expect(updated.createdBy == created.createdBy && updated.createdAt == created.createdAt)
        #expect(updated.updatedAt >= created.updatedAt)
        #expect(try await harness.draftReader.locations(ContentFilter()) == [updated])
        #expect(try await harness.test.count("locations") == 1)

        let event = try await harness.alice.saveEvent(.init(name: "Fair", keywords: ["a"]))
        var eventDraft = event.draft
        eventDraft.keywords = ["b", "c"]
        eventDraft.startDate = try CalendarDay("2027-04-04")
        let changedEvent = try await harness.alice.saveEvent(eventDraft)
        #expect(try changedEvent.keywords == ["b", "c"] && changedEvent.startDate == CalendarDay("2027-04-04"))
    }

    @Test("Soft delete sets deleted_at timestamp", arguments: AdapterBackend.withFirebase)
    func softDeleteSetsDeletedAt(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let before = Date().addingTimeInterval(-5)
        let route = try await harness.alice.saveRoute(.init(name: "Short Walk", durationMinutes: 30))
        try await harness.alice.deleteRoute(route.id)
        let row = try #require(try await harness.storedRow(.routes, id: route.id))
        let deletedAt = try #require(row.optionalDate("deleted_at"))
        // In-process and through the Firebase callables the backend's clock stamps it; over
        // PostgREST the client's own clock does.
        if backend == .local || backend == .firebase { #expect(deletedAt == harness.test.clock.now) } else { #expect(deletedAt >= before) }
        #expect(try row.string("name") == "Short Walk")
        #expect(try await harness.draftReader.routes(ContentFilter()).isEmpty)
        // A deleted record is gone for every further change.
        await #expect(throws: DomainError.notFound("Route \(route.id)")) { try await harness.alice.deleteRoute(route.id) }
        await #expect(throws: DomainError.notFound("Route \(route.id)")) { try await harness.alice.saveRoute(route.draft) }
        await #expect(throws: DomainError.notFound("Route \(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)")) {
            try await harness.alice.deleteRoute(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!)
        }
    }
}
