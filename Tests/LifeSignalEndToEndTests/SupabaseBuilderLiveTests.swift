import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// Every PostgREST builder feature of SupabaseREST against a real `lifesignal serve` over
/// sockets, on SQLite and PostgreSQL: what the builder encodes is what the server decodes,
/// awkward values included, and the server's answers (counts, ranges, errors) come back typed.
@Suite("SupabaseREST builder live against lifesignal serve")
struct SupabaseBuilderLiveTests {
    struct Place: Codable, Equatable, Sendable {
        var id: UUID?
        var name: String
        var slug: String
        var region: String?
        var status: String?
        var sortOrder: Int?
        var createdBy: UUID?

        enum CodingKeys: String, CodingKey {
            case id, name, slug, region, status
            case sortOrder = "sort_order"
            case createdBy = "created_by"
        }
    }

    /// Names chosen to break a careless encoder: list and tree separators, quotes, a
    /// backslash, `+` (a space when form-decoded), `%`, `*`, and non-ASCII text.
    static let awkward: [(name: String, region: String?, status: String, order: Int)] = [
        ("Lyon, Part-Dieu", "Rhône", "published", 1),
        ("Marseille (Vieux-Port)", "Provence", "published", 2),
        (#"Say "hi""#, nil, "draft", 3),
        (#"Back\slash"#, nil, "draft", 4),
        ("a+b", "Plus", "archived", 5),
        ("100% Pure", nil, "published", 6),
        ("Star*Field", "Nord", "draft", 7),
        ("Café Ünïcode", "Île-de-France", "published", 8),
    ]

    struct Fixture {
        let test: TestBackend
        let server: TestServer
        let client: SupabaseClient
        let me: UUID
    }

    static func fixture(_ engine: Engine, seed: Bool = true) async throws -> Fixture {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        let (client, me) = try await SupabaseLiveTests.client(test, server)
        if seed {
            let rows = awkward.enumerated().map { index, row in
                Place(name: row.name, slug: "place-\(index)", region: row.region, status: row.status, sortOrder: row.order, createdBy: me)
            }
            try await client.from("locations").insert(rows).execute()
        }
        return Fixture(test: test, server: server, client: client, me: me)
    }

    func names(_ query: PostgrestFilterBuilder) async throws -> [String] {
        let rows: [Place] = try await query.order("sort_order").execute().value
        return rows.map(\.name)
    }

    @Test("comparison and pattern filters; values with , ( ) \" \\ + % * and accents round-trip", arguments: Engine.allCases)
    func comparisonFilters(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine)
        defer { Task { await fixture.server.stop() } }
        let places = { fixture.client.from("locations").select() }

        for row in Self.awkward {
            #expect(try await names(places().eq("name", value: row.name)) == [row.name], "eq \(row.name)")
        }
        #expect(try await names(places().neq("status", value: "draft")).count == 5)
        #expect(try await names(places().gt("sort_order", value: 6)) == ["Star*Field", "Café Ünïcode"])
        #expect(try await names(places().gte("sort_order", value: 7)).count == 2)
        #expect(try await names(places().lt("sort_order", value: 2)) == ["Lyon, Part-Dieu"])
        #expect(try await names(places().lte("sort_order", value: 2)).count == 2)
        // `*` is LIKE's wildcard in PostgREST syntax; `%` is sent encoded and keeps its meaning.
        #expect(try await names(places().like("name", pattern: "Mar*Port)")) == ["Marseille (Vieux-Port)"])
        #expect(try await names(places().like("name", pattern: "%+%")) == ["a+b"])
        #expect(try await names(places().like("name", pattern: "lyon%")) == [])
        #expect(try await names(places().ilike("name", pattern: "lyon%")) == ["Lyon, Part-Dieu"])
        #expect(try await names(places().ilike("region", pattern: "%de-france")) == ["Café Ünïcode"])
        #expect(try await names(places().is("region", value: nil)) == [#"Say "hi""#, #"Back\slash"#, "100% Pure"])
    }

    @Test("in, not, or, match: quoting inside lists and logic trees", arguments: Engine.allCases)
    func listAndLogicFilters(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine)
        defer { Task { await fixture.server.stop() } }
        let places = { fixture.client.from("locations").select() }

        let quoted: [any PostgrestFilterValue] = ["Lyon, Part-Dieu", "Marseille (Vieux-Port)", #"Say "hi""#, #"Back\slash"#]
        #expect(try await names(places().in("name", values: quoted)) == quoted.map(\.rawValue))
        #expect(try await names(places().in("sort_order", values: [1, 5, 99])) == ["Lyon, Part-Dieu", "a+b"])
        #expect(try await names(places().in("name", values: [])) == [])

        // `not.is.null` keeps rows with a region; `not.eq` drops one status.
        #expect(try await names(places().not("region", operator: .is, value: "null")).count == 5)
        #expect(try await names(places().not("status", operator: .eq, value: "draft")).count == 5)
        #expect(try await names(places().not("sort_order", operator: .in, value: "(1,2,3,4,5,6)")) == ["Star*Field", "Café Ünïcode"])

        let tree = #"name.eq."Lyon, Part-Dieu",and(status.eq.draft,sort_order.gte.4),name.eq."Marseille (Vieux-Port)""#
        #expect(
            try await names(places().or(tree))
                == ["Lyon, Part-Dieu", "Marseille (Vieux-Port)", #"Back\slash"#, "Star*Field"])
        // Two `or` parameters are ANDed.
        #expect(
            try await names(places().or("sort_order.lt.3,sort_order.gt.7").or("status.eq.published")) == [
                "Lyon, Part-Dieu", "Marseille (Vieux-Port)", "Café Ünïcode",
            ])

        #expect(try await names(places().match(["status": "published", "sort_order": 6])) == ["100% Pure"])
        #expect(try await names(places().filter("sort_order", operator: "not.in", value: "(1,2,3,4,5,6,7)")) == ["Café Ünïcode"])
    }

    @Test("operators the server does not implement come back as a typed PostgrestError", arguments: Engine.allCases)
    func unsupportedOperators(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine, seed: false)
        defer { Task { await fixture.server.stop() } }
        // Full-text search is outside the server's filter grammar; it must still arrive and
        // be refused in PostgREST's format.
        await #expect {
            try await fixture.client.from("locations").select().textSearch("name", query: "lyon").execute()
        } throws: { error in
            guard let error = error as? PostgrestError else { return false }
            return error.code == "PGRST100" && error.message.contains("fts.lyon")
        }
        await #expect {
            try await fixture.client.from("locations").select().eq("no_such_column", value: 1).execute()
        } throws: { ($0 as? PostgrestError)?.code == "42703" }
    }

    @Test("order, limit, range, counts, head, single, maybeSingle, column aliases", arguments: Engine.allCases)
    func transforms(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine)
        defer { Task { await fixture.server.stop() } }
        let client = fixture.client

        let byRegion: [Place] = try await client.from("locations").select()
            .order("region", ascending: false, nullsFirst: true).order("sort_order", ascending: false).execute().value
        #expect(byRegion.prefix(3).map(\.name) == ["100% Pure", #"Back\slash"#, #"Say "hi""#])
        // (The order among the regions themselves is collation-dependent, so it is not compared.)
        #expect(byRegion.dropFirst(3).allSatisfy { $0.region != nil })
        let nullsLast: [Place] = try await client.from("locations").select().order("region").limit(5).execute().value
        #expect(nullsLast.count == 5 && nullsLast.allSatisfy { $0.region != nil })

        let page =
            try await client.from("locations").select("id", count: .exact).order("sort_order").range(from: 2, to: 4)
            .execute() as PostgrestResponse<[[String: AnyJSON]]>
        #expect(page.value.count == 3)
        #expect(page.count == 8)
        #expect(page.status == 206)
        #expect(page.response.headers["Content-Range"] == "2-4/8")

        let head = try await client.from("locations").select("*", head: true, count: .exact).eq("status", value: "published").execute()
        #expect(head.count == 4)
        #expect(head.data.isEmpty)
        let viaOptions = try await client.from("locations").select().execute(options: FetchOptions(head: true, count: .exact))
        #expect(viaOptions.count == 8)

        struct Label: Decodable {
            var label: String
            var sort_order: Int
        }
        let one: Label = try await client.from("locations").select("label:name, sort_order").eq("sort_order", value: 2).single().execute().value
        #expect(one.label == "Marseille (Vieux-Port)" && one.sort_order == 2)

        let nothing: Place? = try await client.from("locations").select().eq("status", value: "nothing").maybeSingle().execute().value
        #expect(nothing == nil)
        let found: Place? = try await client.from("locations").select().eq("sort_order", value: 2).maybeSingle().execute().value
        #expect(found?.name == "Marseille (Vieux-Port)")
        await #expect {
            let _: Place? = try await client.from("locations").select().eq("status", value: "draft").maybeSingle().execute().value
        } throws: { ($0 as? PostgrestError)?.details == "The result contains 3 rows" }

        for filter in ["draft", "nothing"] {
            await #expect {
                let _: Place = try await client.from("locations").select().eq("status", value: filter).single().execute().value
            } throws: { error in
                guard let error = error as? PostgrestError, error.code == "PGRST116" else { return false }
                return error.details == (filter == "draft" ? "The result contains 3 rows" : "The result contains 0 rows")
            }
        }
    }

    @Test("insert, upsert (merge, ignore, on_conflict), update and delete with returning and counts", arguments: Engine.allCases)
    func mutations(engine: Engine) async throws {
        let fixture = try await Self.fixture(engine, seed: false)
        defer { Task { await fixture.server.stop() } }
        let client = fixture.client
        let me = fixture.me

        // Array insert with differing keys: `columns=` carries the union, and a key missing
        // from one object is NULL there (as in PostgREST), so only a nullable column differs.
        let inserted: [Place] = try await client.from("locations").insert([
            Place(name: "One", slug: "one", sortOrder: 1, createdBy: me),
            Place(name: "Two", slug: "two", region: "North", sortOrder: 0, createdBy: me),
        ]).select().execute().value
        #expect(inserted.map(\.name).sorted() == ["One", "Two"])
        #expect(inserted.first { $0.slug == "one" }?.region == nil)
        #expect(inserted.first { $0.slug == "two" }?.region == "North")
        #expect(inserted.allSatisfy { $0.status == "draft" })
        let minimal = try await client.from("locations").insert(Place(name: "Three", slug: "three", createdBy: me), returning: .minimal).execute()
        #expect(minimal.status == 201 && minimal.data.isEmpty)

        // Upsert on the unique slug: merge updates, ignore keeps the stored row.
        let merged: [Place] = try await client.from("locations")
            .upsert(Place(name: "One (renamed)", slug: "one", sortOrder: 9, createdBy: me), onConflict: "slug").execute().value
        #expect(merged.map(\.name) == ["One (renamed)"])
        let ignored: [Place] = try await client.from("locations")
            .upsert(Place(name: "Two (ignored)", slug: "two", createdBy: me), onConflict: "slug", ignoreDuplicates: true).execute().value
        #expect(ignored.isEmpty)
        let stored: [Place] = try await client.from("locations").select().order("slug").execute().value
        #expect(stored.map(\.name) == ["One (renamed)", "Three", "Two"])
        #expect(try await fixture.test.count("locations") == 3)

        // Update with a count; `single()` on a two-row update is refused and rolled back.
        let updated =
            try await client.from("locations").update(["status": "published"], count: .exact)
            .in("slug", values: ["one", "two"]).execute() as PostgrestResponse<[Place]>
        #expect(updated.value.count == 2 && updated.count == 2)
        await #expect {
            let _: Place = try await client.from("locations").update(["region": "Everywhere"]).neq("slug", value: "x").select().single().execute().value
        } throws: { ($0 as? PostgrestError)?.code == "PGRST116" }
        let regions: [Place] = try await client.from("locations").select("name,slug,region").eq("region", value: "Everywhere").execute().value
        #expect(regions.isEmpty)

        // Delete returns the deleted rows by default, and counts them when asked.
        let deleted: [Place] = try await client.from("locations").delete().eq("slug", value: "three").execute().value
        #expect(deleted.map(\.name) == ["Three"])
        let counted = try await client.from("locations").delete(returning: .minimal, count: .exact).eq("status", value: "published").execute()
        #expect(counted.count == 2)
        #expect(try await fixture.test.count("locations") == 0)

        // A duplicate slug is Postgres' unique violation, typed, with its detail kept.
        try await client.from("locations").insert(Place(name: "A", slug: "dup", createdBy: me)).execute()
        await #expect {
            try await client.from("locations").insert(Place(name: "B", slug: "dup", createdBy: me)).execute()
        } throws: { error in
            guard let error = error as? PostgrestError else { return false }
            return error.code == "23505" && !error.message.isEmpty
        }
        #expect(try await fixture.test.count("locations") == 1)
    }
}
