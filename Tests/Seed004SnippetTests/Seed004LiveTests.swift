import Foundation
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// Runs the compiled seed-004 snippets against a real `lifesignal serve` on SQLite and
/// PostgreSQL, checking the seed's own "Testing Requirements" list.
@Suite("Seed 004 snippets live against lifesignal serve")
struct Seed004LiveTests {
    struct NewEvent: Encodable, Sendable {
        var name: String
        var slug: String
        var start_date: String?
        var end_date: String?
        var sort_order: Int
        var created_by: UUID
    }

    struct NewRoute: Encodable, Sendable {
        var name: String
        var slug: String
        var sort_order: Int
        var created_by: UUID
        var deleted_at: NullEncodable<String>
    }

    struct Fixture {
        let server: TestServer
        let client: SupabaseClient
        let me: UUID
    }

    static func fixture(_ engine: Engine) async throws -> Fixture {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        let client = SupabaseClient(
            supabaseURL: server.baseURL, supabaseKey: server.anonKey,
            options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage())))
        let session = try #require(try await client.auth.signUp(email: "editor@example.org", password: "seed-004-editor").session)
        // The seed's admin app is used by editors (docs/security.md, "Content"): the service role
        // makes this account one, and the refreshed token carries the role.
        try await server.makeEditor(session.user.id.uuidString.lowercased())
        try await client.auth.refreshSession()
        return Fixture(server: server, client: client, me: session.user.id)
    }

    func draft(_ name: String, order: Int, website: String? = nil, status: LocationStatus = .draft, by me: UUID) -> Location {
        Location(id: UUID(), name: name, slug: nil, websiteUrl: website, status: status, sortOrder: order, createdBy: me)
    }

    @Test("locations: create, search, sort, update, save, soft delete, filters, helpers, pagination", arguments: Engine.allCases)
    func locations(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine)
        defer { Task { await fixture.server.stop() } }
        let fetch = FetchSnippets(client: fixture.client)
        let save = SaveDeleteSnippets(client: fixture.client)
        let helpers = HelperSnippets(client: fixture.client)
        let me = fixture.me

        // Create operations return the created record.
        let vineyard = try await save.createLocation(draft("Paris Vineyard", order: 2, website: "parisvineyard.com", by: me))
        #expect(vineyard.slug == "paris-vineyard")
        #expect(vineyard.websiteUrl == "https://parisvineyard.com")
        #expect(vineyard.status == .draft && vineyard.createdBy == me && vineyard.deletedAt == nil)
        let farm = try await save.createLocation(draft("Amador Flower Farm", order: 1, by: me))
        let road = try await save.createLocation(draft("Old Paris Road", order: 1, by: me))
        _ = try await save.createLocation(draft("Sutter Creek", order: 0, status: .published, by: me))

        // Search is case-insensitive; sorting is sort_order, then name.
        #expect(try await fetch.fetchLocations(searchTerm: "PARIS").map(\.name) == ["Old Paris Road", "Paris Vineyard"])
        #expect(
            try await fetch.fetchLocations(searchTerm: "").map(\.name)
                == ["Sutter Creek", "Amador Flower Farm", "Old Paris Road", "Paris Vineyard"])

        // Update operations return the updated record.
        var renamed = road
        renamed.name = "Old Paris Rd"
        renamed.slug = nil
        renamed.status = .published
        let updated = try await save.updateLocation(renamed)
        #expect(updated.id == road.id && updated.name == "Old Paris Rd" && updated.slug == "old-paris-rd")
        #expect(updated.status == .published)
        let lake = try await save.saveLocation(draft("Volcano Lake", order: 3, by: me), exists: false)
        #expect(lake.slug == "volcano-lake")

        // Soft delete sets deleted_at; fetches return non-deleted records only.
        try await save.softDeleteLocation(id: farm.id)
        let deleted: Location = try await fixture.client.from("locations").select().eq("id", value: farm.id).single().execute().value
        #expect(deleted.deletedAt != nil)
        #expect(!(try await fetch.fetchLocations(searchTerm: nil)).contains { $0.id == farm.id })

        #expect(try await fetch.filteredLocations(searchTerm: "p", status: "published").map(\.name) == ["Old Paris Rd"])

        // The helpers, sorting and pagination patterns.
        let searched: [Location] = try await helpers.sortedByName(
            helpers.withSearch(helpers.baseQuery(table: "locations", select: "id, name, status, sort_order"), searchTerm: "a")
        ).execute().value
        #expect(searched.map(\.name) == ["Old Paris Rd", "Paris Vineyard", "Volcano Lake"])
        #expect(searched.allSatisfy { $0.slug == nil })  // only the selected columns came back
        let page: [Location] = try await helpers.paginated(
            helpers.sortedByName(helpers.baseQuery(table: "locations")), from: 1, to: 2, limit: 2
        ).execute().value
        #expect(page.map(\.name) == ["Old Paris Rd", "Paris Vineyard"])
        let nonDeleted: [Location] = try await fetch.nonDeleted(fixture.client.from("locations").select()).execute().value
        #expect(nonDeleted.count == 4)
    }

    @Test("events and routes: the snippet's date filter, the contract's date window, sorting, search", arguments: Engine.allCases)
    func eventsAndRoutes(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine)
        defer { Task { await fixture.server.stop() } }
        let fetch = FetchSnippets(client: fixture.client)
        let helpers = HelperSnippets(client: fixture.client)
        let me = fixture.me
        try await fixture.client.from("events").insert([
            NewEvent(name: "Past", slug: "past", start_date: "2024-05-01", end_date: "2024-05-02", sort_order: 0, created_by: me),
            NewEvent(name: "Spanning", slug: "spanning", start_date: "2024-05-30", end_date: "2024-06-03", sort_order: 1, created_by: me),
            NewEvent(name: "June Fair", slug: "june-fair", start_date: "2024-06-10", end_date: nil, sort_order: 0, created_by: me),
            NewEvent(name: "Later", slug: "later", start_date: "2024-08-01", end_date: nil, sort_order: 0, created_by: me),
            NewEvent(name: "Undated", slug: "undated", start_date: nil, end_date: nil, sort_order: 2, created_by: me),
        ]).execute()

        // The Swift snippet as written: start_date only, ordered by start_date then name.
        #expect(try await fetch.fetchEvents(fromDate: "2024-06-01", toDate: "2024-06-30").map(\.name) == ["June Fair"])
        #expect(try await fetch.fetchEvents(fromDate: "2024-06-01", toDate: nil).map(\.name) == ["June Fair", "Later"])
        // The contract: running and undated events are kept, sorted by sort_order then start_date.
        #expect(try await fetch.fetchEventsPerContract(fromDate: "2024-06-01", toDate: "2024-06-30").map(\.name) == ["June Fair", "Spanning"])
        #expect(
            try await fetch.fetchEventsPerContract(fromDate: "2024-06-01", toDate: nil).map(\.name)
                == ["June Fair", "Later", "Spanning", "Undated"])
        let sorted: [Event] = try await helpers.sortedByStartDate(helpers.baseQuery(table: "events")).execute().value
        #expect(sorted.map(\.name) == ["Past", "June Fair", "Later", "Spanning", "Undated"])

        try await fixture.client.from("routes").insert([
            NewRoute(name: "Loop Trail", slug: "loop-trail", sort_order: 1, created_by: me, deleted_at: NullEncodable(nil)),
            NewRoute(name: "Ridge Loop", slug: "ridge-loop", sort_order: 0, created_by: me, deleted_at: NullEncodable(nil)),
            NewRoute(name: "Old Loop", slug: "old-loop", sort_order: 0, created_by: me, deleted_at: NullEncodable("2024-01-01T00:00:00Z")),
            NewRoute(name: "River Walk", slug: "river-walk", sort_order: 0, created_by: me, deleted_at: NullEncodable(nil)),
        ]).execute()
        #expect(try await fetch.fetchRoutes(searchTerm: "LOOP").map(\.name) == ["Ridge Loop", "Loop Trail"])
        #expect(try await fetch.fetchRoutes(searchTerm: nil).map(\.name) == ["Ridge Loop", "River Walk", "Loop Trail"])
    }

    @Test("error handling re-throws typed errors with the server's message", arguments: Engine.allCases)
    func errors(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine)
        defer { Task { await fixture.server.stop() } }
        let fetch = FetchSnippets(client: fixture.client)
        let helpers = HelperSnippets(client: fixture.client)

        await #expect {
            _ = try await fetch.loadLocations(helpers.baseQuery(table: "no_such_table"))
        } throws: { error in
            guard let error = error as? PostgrestError else { return false }
            return error.code == "PGRST205" && error.message.contains("no_such_table")
        }

        // Signed out, the anon role may read but not write: a permission error, typed.
        let anonymous = SupabaseClient(supabaseURL: fixture.server.baseURL, supabaseKey: fixture.server.anonKey)
        await #expect {
            _ = try await SaveDeleteSnippets(client: anonymous).createLocation(draft("Nope", order: 0, by: fixture.me))
        } throws: { error in
            guard let error = error as? PostgrestError else { return false }
            return error.code == "42501" && !error.message.isEmpty
        }
        #expect(try await FetchSnippets(client: anonymous).fetchLocations(searchTerm: nil).isEmpty)
    }
}
