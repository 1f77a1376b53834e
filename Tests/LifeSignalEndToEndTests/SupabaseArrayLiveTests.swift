import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// SupabaseREST's array filters (`contains`, `containedBy`, `overlaps`) and array values
/// against `lifesignal serve`'s `events.keywords` on both engines.
@Suite("SupabaseREST arrays live against lifesignal serve")
struct SupabaseArrayLiveTests {
    struct Event: Codable, Equatable, Sendable {
        var name: String
        var slug: String
        var keywords: [String]
        var createdBy: UUID?

        enum CodingKeys: String, CodingKey {
            case name, slug, keywords
            case createdBy = "created_by"
        }
    }

    @Test("contains, containedBy, overlaps, not and or with array values; errors typed", arguments: Engine.allCases)
    func arrayFilters(engine: Engine) async throws {
        let fixture = try await SupabaseBuilderLiveTests.fixture(engine, seed: false)
        defer { Task { await fixture.server.stop() } }
        let client = fixture.client
        let made: [Event] = try await client.from("events").insert([
            Event(name: "Walk", slug: "walk", keywords: ["outdoor", "free"], createdBy: fixture.me),
            Event(name: "Choir", slug: "choir", keywords: ["music", "free, {weekly}", "NULL"], createdBy: fixture.me),
            Event(name: "Gig", slug: "gig", keywords: ["music", "outdoor", #"say "hi""#], createdBy: fixture.me),
        ]).select().execute().value
        #expect(made.map(\.keywords) == [["outdoor", "free"], ["music", "free, {weekly}", "NULL"], ["music", "outdoor", #"say "hi""#]])

        func slugs(_ query: PostgrestFilterBuilder) async throws -> [String] {
            let rows: [Event] = try await query.order("slug").execute().value
            return rows.map(\.slug)
        }
        let events = { client.from("events").select() }
        #expect(try await slugs(events().contains("keywords", value: ["music"])) == ["choir", "gig"])
        #expect(
            try await slugs(events().contains("keywords", value: ["free, {weekly}", "NULL"])) == ["choir"],
            "quoted elements, and the string \"NULL\" is not SQL NULL")
        #expect(try await slugs(events().contains("keywords", value: [#"say "hi""#])) == ["gig"])
        #expect(try await slugs(events().containedBy("keywords", value: ["outdoor", "free", "music"])) == ["walk"])
        #expect(try await slugs(events().overlaps("keywords", value: ["free", #"say "hi""#])) == ["gig", "walk"])
        #expect(try await slugs(events().not("keywords", operator: .ov, value: ["music"])) == ["walk"])
        #expect(try await slugs(events().or("keywords.cs.{outdoor,free},keywords.cs.{music,outdoor}")) == ["gig", "walk"])

        let updated: [Event] = try await client.from("events").update(["keywords": ["indoor"]]).eq("slug", value: "walk").select().execute().value
        #expect(updated.map(\.keywords) == [["indoor"]])

        await #expect {
            try await client.from("events").select().contains("name", value: ["Walk"]).execute()
        } throws: { error in
            guard let error = error as? PostgrestError else { return false }
            return error.code == "42883" && error.message == "operator does not exist: text @> unknown" && error.hint != nil
        }
        await #expect {
            try await client.from("events").update(["keywords": "not an array"]).eq("slug", value: "gig").execute()
        } throws: { ($0 as? PostgrestError)?.code == "22P02" }
        let gig: [Event] = try await events().eq("slug", value: "gig").execute().value
        #expect(gig.first?.keywords == ["music", "outdoor", #"say "hi""#], "a refused update changes nothing")
    }
}
