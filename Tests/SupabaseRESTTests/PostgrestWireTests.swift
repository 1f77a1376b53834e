import Foundation
import Testing

@testable import SupabaseREST

/// Golden wire tests: what each builder call puts on the wire (the URL, headers and body supabase-swift would send).
@Suite struct PostgrestWireTests {
    @Test func selectWithFiltersAndOrderMatchesSupabaseSwiftBytes() async throws {
        let transport = RecordingTransport()
        let client = makeClient(transport)
        try await client.from("locations").select().is("deleted_at", value: nil)
            .ilike("name", pattern: "%par%").order("sort_order").order("name").execute()

        let request = try #require(transport.last)
        #expect(request.method == .get)
        #expect(request.path == "/rest/v1/locations")
        #expect(
            request.rawQuery
                == "select=%2A&deleted_at=is.NULL&name=ilike.%25par%25&order=sort_order.asc.nullslast%2Cname.asc.nullslast")
        #expect(
            request.queryItems == [
                "select=*", "deleted_at=is.NULL", "name=ilike.%par%",
                "order=sort_order.asc.nullslast,name.asc.nullslast",
            ])
        #expect(
            request.headers.lowercasedDictionary == [
                "accept": "application/json",
                "content-type": "application/json",
                "apikey": anonKey,
                "authorization": "Bearer \(anonKey)",
                "x-client-info": "supabase-swift/2.55.1",
            ])
        #expect(request.body == nil)
    }

    @Test func insertSelectSingle() async throws {
        struct NewLocation: Encodable, Sendable {
            var name: String
            var sort_order: Int
        }
        let transport = RecordingTransport(status: 201, body: #"{"id":1}"#)
        let client = makeClient(transport)
        try await client.from("locations").insert(NewLocation(name: "Lyon", sort_order: 2)).select().single().execute()

        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.path == "/rest/v1/locations")
        #expect(request.rawQuery == "select=%2A")
        #expect(request.headers["Accept"] == "application/vnd.pgrst.object+json")
        #expect(request.headers["Prefer"] == "return=representation")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.json == ["name": "Lyon", "sort_order": 2])
    }

    @Test func insertWithoutSelectSendsNoPrefer() async throws {
        let transport = RecordingTransport(status: 201, body: "")
        try await makeClient(transport).from("t").insert(["a": 1]).execute()
        let request = try #require(transport.last)
        #expect(request.headers["Prefer"] == nil)
        #expect(request.rawQuery == nil)
    }

    @Test func arrayInsertAddsQuotedColumnsUnion() async throws {
        let transport = RecordingTransport(status: 201, body: "")
        let rows: [[String: AnyJSON]] = [["name": "a", "b": 1], ["name": "c", "sort_order": 2]]
        try await makeClient(transport).from("t").insert(rows, returning: .minimal, count: .exact).execute()
        let request = try #require(transport.last)
        #expect(request.queryItems == [#"columns="b","name","sort_order""#])
        #expect(request.rawQuery == "columns=%22b%22%2C%22name%22%2C%22sort_order%22")
        #expect(request.headers["Prefer"] == "return=minimal,count=exact")
    }

    @Test func updateDefaultsToRepresentationWithoutSelect() async throws {
        let transport = RecordingTransport(body: "[]")
        try await makeClient(transport).from("locations").update(["name": "Lyon"]).eq("id", value: 1).execute()
        let request = try #require(transport.last)
        #expect(request.method == .patch)
        #expect(request.path == "/rest/v1/locations")
        #expect(request.rawQuery == "id=eq.1")
        #expect(request.headers["Prefer"] == "return=representation")
        #expect(request.json == ["name": "Lyon"])
    }

    @Test func updateSelectSingleKeepsOneReturnPreference() async throws {
        let transport = RecordingTransport(body: #"{"id":1}"#)
        let id = UUID(uuidString: "3F1C2B9E-4D5A-4C6B-8E7F-9A0B1C2D3E4F")!
        try await makeClient(transport).from("locations").update(["name": "Lyon"], returning: .minimal)
            .eq("id", value: id).select().single().execute()
        let request = try #require(transport.last)
        #expect(request.queryItems == ["id=eq.3F1C2B9E-4D5A-4C6B-8E7F-9A0B1C2D3E4F", "select=*"])
        #expect(request.headers["Prefer"] == "return=representation")
        #expect(request.headers["Accept"] == "application/vnd.pgrst.object+json")
    }

    @Test func softDeleteSendsTimestampBody() async throws {
        let transport = RecordingTransport(status: 204, body: "")
        try await makeClient(transport).from("locations")
            .update(["deleted_at": "2024-06-05T12:00:00Z"]).eq("id", value: "7").execute()
        let request = try #require(transport.last)
        #expect(request.rawQuery == "id=eq.7")
        #expect(request.json == ["deleted_at": "2024-06-05T12:00:00Z"])
    }

    @Test func upsertAndDelete() async throws {
        let transport = RecordingTransport(body: "[]")
        let client = makeClient(transport)
        try await client.from("t").upsert(["id": 1], onConflict: "slug", ignoreDuplicates: true).execute()
        var request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.headers["Prefer"] == "resolution=ignore-duplicates,return=representation")
        #expect(request.queryItems == ["on_conflict=slug"])

        try await client.from("t").upsert(["id": 1]).execute()
        request = try #require(transport.last)
        #expect(request.headers["Prefer"] == "resolution=merge-duplicates,return=representation")

        try await client.from("t").delete(count: .exact).eq("id", value: 3).execute()
        request = try #require(transport.last)
        #expect(request.method == .delete)
        #expect(request.headers["Prefer"] == "return=representation,count=exact")
        #expect(request.rawQuery == "id=eq.3")
        #expect(request.body == nil)
    }

    @Test func everyFilterOperator() async throws {
        let transport = RecordingTransport()
        try await makeClient(transport).from("t").select("id, name, \"odd col\"")
            .eq("a", value: "x y").neq("b", value: true).gt("c", value: 1.5).gte("d", value: 2)
            .lt("e", value: 3).lte("f", value: 4).like("g", pattern: "a*")
            .in("h", values: ["Lyon, Part-Dieu", "plain", "say \"hi\"", " pad", 5])
            .contains("tags", value: ["a", "b c", "x,y", ""] as [String])
            .not("k", operator: .is, value: "true")
            .or("status.eq.a,and(n.gte.1,n.lte.9)")
            .or("x.eq.1", referencedTable: "events")
            .match(["z": 1, "y": "two"])
            .filter("w", operator: "not.in", value: "(1,2)")
            .execute()

        let request = try #require(transport.last)
        #expect(
            request.queryItems == [
                #"select=id,name,"odd col""#,
                "a=eq.x y", "b=neq.true", "c=gt.1.5", "d=gte.2", "e=lt.3", "f=lte.4", "g=like.a*",
                #"h=in.("Lyon, Part-Dieu",plain,"say \"hi\""," pad",5)"#,
                #"tags=cs.{a,b c,"x,y",""}"#,
                "k=not.is.true",
                "or=(status.eq.a,and(n.gte.1,n.lte.9))",
                "events.or=(x.eq.1)",
                "y=eq.two", "z=eq.1",
                "w=not.in.(1,2)",
            ])
        let raw = try #require(request.rawQuery)
        #expect(raw.contains("a=eq.x%20y"))
        #expect(raw.contains("or=%28status.eq.a%2Cand%28n.gte.1%2Cn.lte.9%29%29"))
        #expect(raw.contains("select=id%2Cname%2C%22odd%20col%22"))
    }

    @Test func filterValuesOfEveryKind() async throws {
        let transport = RecordingTransport()
        let date = Date(timeIntervalSince1970: 1_717_588_800)  // 2024-06-05T12:00:00Z
        let missing: Int? = nil
        try await makeClient(transport).from("t").select()
            .gte("start", value: date).eq("n", value: missing).is("flag", value: true)
            .eq("plus", value: "a+b").eq("list", value: [1, 2] as [Int]).execute()
        let request = try #require(transport.last)
        #expect(
            request.queryItems == [
                "select=*", "start=gte.2024-06-05T12:00:00.000Z", "n=eq.NULL", "flag=is.true",
                "plus=eq.a+b", "list=eq.{1,2}",
            ])
        // A literal plus must be encoded, or PostgREST reads it as a space.
        #expect(request.rawQuery?.contains("plus=eq.a%2Bb") == true)
        #expect(request.rawQuery?.contains("start=gte.2024-06-05T12%3A00%3A00.000Z") == true)
    }

    @Test func rangeLimitAndReferencedOrder() async throws {
        let transport = RecordingTransport()
        let client = makeClient(transport)
        try await client.from("t").select().order("a", ascending: false, nullsFirst: true)
            .order("title", referencedTable: "events").range(from: 10, to: 19).execute()
        #expect(
            transport.last?.queryItems == [
                "select=*", "order=a.desc.nullsfirst", "events.order=title.asc.nullslast", "offset=10", "limit=10",
            ])

        try await client.from("t").select().limit(5).limit(count: 7).execute()
        #expect(transport.last?.queryItems == ["select=*", "limit=7"])
    }

    @Test func headCountAndSchemaProfiles() async throws {
        let transport = RecordingTransport { _, _ in
            HTTPResponse(status: 206, headers: ["Content-Range": "0-1/6"], body: Data())
        }
        let client = makeClient(transport, schema: "app")
        let response = try await client.from("t").select("*", head: true, count: .exact).execute()
        var request = try #require(transport.last)
        #expect(request.method == .head)
        #expect(request.headers["Prefer"] == "count=exact")
        #expect(request.headers["Accept-Profile"] == "app")
        #expect(request.headers["Content-Profile"] == nil)
        #expect(response.count == 6)
        #expect(response.status == 206)

        try await client.from("t").delete().eq("id", value: 1).execute()
        request = try #require(transport.last)
        #expect(request.headers["Content-Profile"] == "app")

        try await client.schema("other").from("t").select().execute(options: FetchOptions(count: .planned))
        request = try #require(transport.last)
        #expect(request.headers["Accept-Profile"] == "other")
        #expect(request.headers["Prefer"] == "count=planned")
    }

    @Test func rpcPostsParams() async throws {
        let transport = RecordingTransport(body: "3")
        let value: Int = try await makeClient(transport).rpc("add", params: ["a": 1, "b": 2]).execute().value
        let request = try #require(transport.last)
        #expect(value == 3)
        #expect(request.method == .post)
        #expect(request.path == "/rest/v1/rpc/add")
        #expect(request.json == ["a": 1, "b": 2])
    }

    @Test func signedInRequestsCarryTheAccessToken() async throws {
        let transport = RecordingTransport()
        let client = makeClient(transport)
        try await client.auth.setSession(try makeSession(access: "user-jwt", expiresIn: 3600))
        try await client.from("t").select().execute()
        let request = try #require(transport.last)
        #expect(request.headers["Authorization"] == "Bearer user-jwt")
        #expect(request.headers["apikey"] == anonKey)
    }

    @Test func globalHeadersAreSentButDoNotReplaceAuthorization() async throws {
        let transport = RecordingTransport()
        let client = makeClient(transport, headers: ["X-Trace": "1", "Authorization": "Bearer nope"])
        try await client.from("t").select().execute()
        #expect(transport.last?.headers["X-Trace"] == "1")
        #expect(transport.last?.headers["Authorization"] == "Bearer \(anonKey)")
    }

    @Test func badTableNameThrowsInsteadOfCrashing() async throws {
        let transport = RecordingTransport()
        let client = SupabaseClient(
            supabaseURL: URL(string: "file:///tmp")!, supabaseKey: "k",
            options: .init(global: .init(transport: transport)))
        await #expect(throws: TransportError.self) {
            try await client.from("weird table/?#").select().execute()
        }
        await #expect(throws: TransportError.self) {
            try await makeClient(transport).from("").select().execute()
        }
        #expect(transport.requests.isEmpty)
    }
}
