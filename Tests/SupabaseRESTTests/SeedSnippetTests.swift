import Foundation
import SupabaseREST
import Testing

/// The Swift snippets of seed 004 ("API Contracts"), compiled against this library with
/// only the import changed, then run against a recording transport.
///
/// Where the seed contradicts itself the nearest form real supabase-swift accepts is used
/// and a comment says why; nothing here would compile differently against supabase-swift.
@Suite struct SeedSnippetTests {
    struct Location: Codable, Sendable {
        var id: UUID
        var name: String
        var slug: String?
        var region: String?
        var shortDescription: String?
        var websiteUrl: String?
        var status: Status
        var sortOrder: Int
        var createdBy: UUID?

        enum Status: String, Codable, Sendable { case draft, published }

        enum CodingKeys: String, CodingKey {
            case id, name, slug, region, status
            case shortDescription = "short_description"
            case websiteUrl = "website_url"
            case sortOrder = "sort_order"
            case createdBy = "created_by"
        }
    }

    struct Event: Codable, Sendable {
        var id: UUID
        var name: String
        var start_date: String?
    }

    struct LocationInsertData: Encodable, Sendable {
        var name: String
        var slug: String
        var region: String?
        var short_description: String?
        var website_url: String?
        var status: String
        var sort_order: Int
        var created_by: UUID?
    }

    struct LocationUpdateData: Encodable, Sendable {
        var name: String
        var slug: String
        var region: String?
        var short_description: String?
        var website_url: String?
        var status: String
        var sort_order: Int
    }

    static let locationJSON = """
        {"id":"3f1c2b9e-4d5a-4c6b-8e7f-9a0b1c2d3e4f","name":"Lyon","slug":"lyon","region":null,
         "short_description":null,"website_url":null,"status":"draft","sort_order":1,"created_by":null,
         "created_at":"2024-06-05T12:00:00+00:00","deleted_at":null}
        """

    func slugify(_ name: String) -> String { name.lowercased().replacingOccurrences(of: " ", with: "-") }
    func normalizeUrl(_ url: String) -> String { url.hasPrefix("http") ? url : "https://\(url)" }

    // MARK: Fetch operations

    @Test func fetchLocations() async throws {
        let transport = RecordingTransport(body: "[\(Self.locationJSON)]")
        let client = makeClient(transport)
        let searchTerm: String? = "par"

        var filterQuery =
            client
            .from("locations")
            .select()
            .is("deleted_at", value: nil)

        if let searchTerm = searchTerm, !searchTerm.isEmpty {
            filterQuery = filterQuery.ilike("name", pattern: "%\(searchTerm)%")
        }

        let response: [Location] =
            try await filterQuery
            .order("sort_order", ascending: true)
            .order("name", ascending: true)
            .execute()
            .value

        #expect(response.first?.name == "Lyon")
        #expect(
            transport.last?.rawQuery
                == "select=%2A&deleted_at=is.NULL&name=ilike.%25par%25&order=sort_order.asc.nullslast%2Cname.asc.nullslast")
    }

    @Test func fetchEventsAndRoutes() async throws {
        let transport = RecordingTransport(body: "[]")
        let client = makeClient(transport)
        let fromDate: String? = "2024-06-01"
        let toDate: Date? = Date(timeIntervalSince1970: 1_719_705_600)

        var filterQuery =
            client
            .from("events")
            .select()
            .is("deleted_at", value: nil)

        if let fromDate = fromDate {
            // Implement OR logic for date filtering
            filterQuery = filterQuery.gte("start_date", value: fromDate)
        }

        if let toDate = toDate {
            filterQuery = filterQuery.lte("start_date", value: toDate)
        }

        let response: [Event] =
            try await filterQuery
            .order("start_date", ascending: true)
            .order("name", ascending: true)
            .execute()
            .value
        #expect(response.isEmpty)
        #expect(
            transport.last?.queryItems == [
                "select=*", "deleted_at=is.NULL", "start_date=gte.2024-06-01",
                "start_date=lte.2024-06-30T00:00:00.000Z", "order=start_date.asc.nullslast,name.asc.nullslast",
            ])

        // The TypeScript contract's OR filter, in its Swift form.
        let from = "2024-06-01"
        _ = try await client.from("events").select().is("deleted_at", value: nil)
            .or("start_date.gte.\(from),end_date.gte.\(from),and(start_date.is.null,end_date.is.null)")
            .execute()
        #expect(
            transport.last?.queryItems.contains(
                "or=(start_date.gte.2024-06-01,end_date.gte.2024-06-01,and(start_date.is.null,end_date.is.null))") == true)
    }

    // MARK: Save operations

    @Test func createLocation() async throws {
        let transport = RecordingTransport(status: 201, body: Self.locationJSON)
        let client = makeClient(transport)
        let location = try JSONDecoder().decode(Location.self, from: Data(Self.locationJSON.utf8))

        let insertData = LocationInsertData(
            name: location.name,
            slug: location.slug ?? slugify(location.name),
            region: location.region,
            short_description: location.shortDescription,
            website_url: location.websiteUrl.map { normalizeUrl($0) },
            status: location.status.rawValue,
            sort_order: location.sortOrder,
            created_by: location.createdBy
        )

        let response: Location =
            try await client
            .from("locations")
            .insert(insertData)
            .select()
            .single()
            .execute()
            .value

        #expect(response.id == location.id)
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawQuery == "select=%2A")
        #expect(request.headers["Prefer"] == "return=representation")
        #expect(request.headers["Accept"] == "application/vnd.pgrst.object+json")
        #expect(request.json == ["name": "Lyon", "slug": "lyon", "status": "draft", "sort_order": 1])
    }

    @Test func updateLocation() async throws {
        let transport = RecordingTransport(body: Self.locationJSON)
        let client = makeClient(transport)
        let location = try JSONDecoder().decode(Location.self, from: Data(Self.locationJSON.utf8))

        let updateData = LocationUpdateData(
            name: location.name,
            slug: location.slug ?? slugify(location.name),
            region: location.region,
            short_description: location.shortDescription,
            website_url: location.websiteUrl.map { normalizeUrl($0) },
            status: location.status.rawValue,
            sort_order: location.sortOrder
        )

        let response: Location =
            try await client
            .from("locations")
            .update(updateData)
            .eq("id", value: location.id)
            .select()
            .single()
            .execute()
            .value

        #expect(response.name == "Lyon")
        let request = try #require(transport.last)
        #expect(request.method == .patch)
        #expect(request.queryItems == ["id=eq.3F1C2B9E-4D5A-4C6B-8E7F-9A0B1C2D3E4F", "select=*"])
    }

    // MARK: Delete operations

    @Test func softDelete() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        let client = makeClient(transport)
        let id = 7

        try await client
            .from("locations")
            .update(["deleted_at": ISO8601DateFormatter().string(from: Date())])
            .eq("id", value: id)
            .execute()

        let request = try #require(transport.last)
        #expect(request.method == .patch)
        #expect(request.rawQuery == "id=eq.7")
        #expect(request.headers["Prefer"] == "return=representation")
        let stamp = try #require(request.json?.objectValue?["deleted_at"]?.stringValue)
        #expect(ISO8601DateFormatter().date(from: stamp) != nil)
    }

    // MARK: Filtering, error handling, helpers

    @Test func statusFilterAndErrorHandling() async throws {
        let transport = RecordingTransport { _, _ in
            jsonResponse(401, #"{"code":"42501","details":null,"hint":null,"message":"permission denied for table locations"}"#)
        }
        let client = makeClient(transport)
        let status: String? = "published"

        var filterQuery = client.from("locations").select().is("deleted_at", value: nil)
        if let status = status {
            filterQuery = filterQuery.eq("status", value: status)
        }
        let query = filterQuery

        func load() async throws -> [Location] {
            do {
                let response: [Location] = try await query.execute().value
                return response
            } catch {
                throw error
            }
        }
        await #expect(throws: PostgrestError.self) { _ = try await load() }
        #expect(transport.last?.queryItems == ["select=*", "deleted_at=is.NULL", "status=eq.published"])
    }

    // The seed declares these helpers as returning `PostgrestQueryBuilder`, but its own
    // bodies return the result of `.is(…)` / `.ilike(…)`, which in supabase-swift (and here)
    // is a `PostgrestFilterBuilder`; `withSearch` also calls `ilike` on a query builder,
    // which has no filters before `select`. The nearest form that supabase-swift accepts
    // uses `PostgrestFilterBuilder` for both.
    func baseQuery(_ client: SupabaseClient, table: String, select: String = "*") -> PostgrestFilterBuilder {
        return
            client
            .from(table)
            .select(columns: select)
            .is("deleted_at", value: nil)
    }

    func withSearch(_ query: PostgrestFilterBuilder, searchTerm: String?, field: String = "name") -> PostgrestFilterBuilder {
        guard let searchTerm = searchTerm, !searchTerm.isEmpty else {
            return query
        }
        return query.ilike(field, pattern: "%\(searchTerm)%")
    }

    @Test func queryHelpersSortingAndPagination() async throws {
        let transport = RecordingTransport(body: "[]")
        let client = makeClient(transport)

        // `query = query.order(…)` (sorting section) and `query = query.range(…).limit(…)`
        // (pagination section) reassign a transform result to the same variable, so in
        // supabase-swift the variable must be typed as the base `PostgrestTransformBuilder`.
        var query: PostgrestTransformBuilder = withSearch(
            baseQuery(client, table: "routes", select: "id, name"), searchTerm: "loop")
        query =
            query
            .order("sort_order", ascending: true)
            .order("name", ascending: true)
        let from = 20
        let to = 39
        let limit = 20
        query =
            query
            .range(from: from, to: to)
            .limit(count: limit)

        let rows: [Event] = try await query.execute().value
        #expect(rows.isEmpty)
        #expect(
            transport.last?.queryItems == [
                "select=id,name", "deleted_at=is.NULL", "name=ilike.%loop%",
                "order=sort_order.asc.nullslast,name.asc.nullslast", "offset=20", "limit=20",
            ])
    }
}
