import Foundation
import Testing

@testable import SupabaseREST

/// Golden wire tests for the builder members beyond the seed's everyday ones: range and
/// array operators, full-text search, pattern lists, CSV, `maybeSingle`, and RPC by GET/HEAD.
@Suite struct PostgrestOperatorWireTests {
    @Test func arrayRangeAndTextSearchOperators() async throws {
        let transport = RecordingTransport()
        try await makeClient(transport).from("t").select()
            .containedBy("tags", value: ["a", "b"] as [String])
            .overlaps("ids", value: [1, 2] as [Int])
            .contains("meta", value: ["k": AnyJSON.integer(1)] as [String: AnyJSON])
            .rangeLt("r", range: "[1,5)").rangeGt("r", range: "[1,5)")
            .rangeGte("r", range: "[1,5)").rangeLte("r", range: "[1,5)").rangeAdjacent("r", range: "[1,5)")
            .textSearch("body", query: "fat & rat")
            .textSearch("body", query: "fat rat", config: "english", type: .plain)
            .textSearch("body", query: "\"fat rat\"", type: .phrase)
            .textSearch("body", query: "fat or rat", config: "simple", type: .websearch)
            .execute()
        let request = try #require(transport.last)
        #expect(
            request.queryItems == [
                "select=*", "tags=cd.{a,b}", "ids=ov.{1,2}", #"meta=cs.{"k":1}"#,
                "r=sl.[1,5)", "r=sr.[1,5)", "r=nxl.[1,5)", "r=nxr.[1,5)", "r=adj.[1,5)",
                "body=fts.fat & rat", "body=plfts(english).fat rat", #"body=phfts."fat rat""#,
                "body=wfts(simple).fat or rat",
            ])
        #expect(request.rawQuery?.contains("body=fts.fat%20%26%20rat") == true)
        #expect(request.rawQuery?.contains("meta=cs.%7B%22k%22%3A1%7D") == true)
    }

    @Test func patternListsAndNotVariants() async throws {
        let transport = RecordingTransport()
        try await makeClient(transport).from("t").select()
            .likeAllOf("a", patterns: ["x*", "*y"]).likeAnyOf("a", patterns: ["p,q*"])
            .iLikeAllOf("b", patterns: ["X*"]).iLikeAnyOf("b", patterns: ["*Y", "*Z"])
            .not("c", operator: .in, value: "(1,2)").not("d", operator: .like, value: "a*")
            .is("e", value: false).neq("f", value: Optional<Int>.none)
            .execute()
        #expect(
            transport.last?.queryItems == [
                "select=*", "a=like(all).{x*,*y}", #"a=like(any).{"p,q*"}"#, "b=ilike(all).{X*}",
                "b=ilike(any).{*Y,*Z}", "c=not.in.(1,2)", "d=not.like.a*", "e=is.false", "f=neq.NULL",
            ])
    }

    @Test func arrayLiteralsNestNullsAndQuote() async throws {
        let transport = RecordingTransport()
        let nested: [[Int]] = [[1, 2], [3]]
        let withNil: [String?] = ["a", nil, "NULL", "null", " x"]
        try await makeClient(transport).from("t").select()
            .eq("m", value: nested).eq("n", value: withNil).eq("j", value: AnyJSON.array([.integer(1), .null, .string("a b")]))
            .in("d", values: [Date(timeIntervalSince1970: 0), UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!])
            .execute()
        #expect(
            transport.last?.queryItems == [
                "select=*", "m=eq.{{1,2},{3}}", #"n=eq.{a,NULL,"NULL","null"," x"}"#, "j=eq.{1,NULL,a b}",
                "d=in.(1970-01-01T00:00:00.000Z,00000000-0000-0000-0000-00000000000A)",
            ])
    }

    @Test func referencedTableLimitRangeAndCSV() async throws {
        let transport = RecordingTransport(body: "id,name\n1,Lyon\n")
        let response = try await makeClient(transport).from("locations").select("id,name,events(title)")
            .limit(2, referencedTable: "events").range(from: 0, to: 4, referencedTable: "events").csv()
            .execute()
        let request = try #require(transport.last)
        #expect(request.queryItems == ["select=id,name,events(title)", "events.limit=5", "events.offset=0"])
        #expect(request.headers["Accept"] == "text/csv")
        #expect(String(decoding: response.data, as: UTF8.self) == "id,name\n1,Lyon\n")
    }

    @Test func maybeSingleTurnsNoRowIntoNilButNotSeveralRows() async throws {
        struct Row: Decodable, Equatable { var id: Int }
        let none = RecordingTransport { _, _ in
            jsonResponse(
                406, #"{"code":"PGRST116","details":"The result contains 0 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#)
        }
        let client = makeClient(none)
        let missing: Row? = try await client.from("t").select().eq("id", value: 9).maybeSingle().execute().value
        #expect(missing == nil)
        #expect(none.last?.headers["Accept"] == "application/vnd.pgrst.object+json")
        // Without maybeSingle the same answer is an error.
        await #expect(throws: PostgrestError.self) {
            let _: Row? = try await client.from("t").select().single().execute().value
        }

        let many = RecordingTransport { _, _ in
            jsonResponse(
                406, #"{"code":"PGRST116","details":"The result contains 2 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#)
        }
        await #expect {
            let _: Row? = try await makeClient(many).from("t").select().maybeSingle().execute().value
        } throws: { ($0 as? PostgrestError)?.details == "The result contains 2 rows" }

        let one = RecordingTransport(body: #"{"id":3}"#)
        let found: Row? = try await makeClient(one).from("t").select().maybeSingle().execute().value
        #expect(found == Row(id: 3))
    }

    @Test func rpcByGetAndHeadPutsArgumentsInTheQuery() async throws {
        let transport = RecordingTransport { _, _ in
            HTTPResponse(status: 200, headers: ["Content-Range": "0-2/3"], body: Data("[1,2,3]".utf8))
        }
        let client = makeClient(transport)
        struct Args: Encodable, Sendable {
            var flag: Bool
            var n: Int
            var ids: [Int]
            var name: String
            var none: String?
        }
        let values: [Int] = try await client.rpc("pick", params: Args(flag: true, n: 2, ids: [1, 2], name: "a b", none: nil), get: true)
            .execute().value
        #expect(values == [1, 2, 3])
        var request = try #require(transport.last)
        #expect(request.method == .get)
        #expect(request.path == "/rest/v1/rpc/pick")
        #expect(request.queryItems == ["flag=true", "ids={1,2}", "n=2", "name=a b"])
        #expect(request.body == nil)

        let counted = try await client.rpc("pick", head: true, count: .exact).execute()
        request = try #require(transport.last)
        #expect(request.method == .head)
        #expect(request.headers["Prefer"] == "count=exact")
        #expect(request.rawQuery == nil)
        #expect(counted.count == 3)

        #expect(throws: EncodingError.self) { try client.rpc("pick", params: [1, 2], get: true) }
    }
}
