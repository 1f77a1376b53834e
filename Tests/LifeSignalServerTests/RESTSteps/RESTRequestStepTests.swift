import Foundation
import HTTPTypes
import Testing

@testable import LifeSignalServer

/// Step 1 of `/rest/v1` alone: query strings and headers in, a parsed request or PostgREST's
/// refusal out, with no schema, database or server.
@Suite("REST step 1: request")
struct RESTRequestStepTests {
    private func headers(_ pairs: [(String, String)]) -> HTTPFields {
        var fields = HTTPFields()
        for (name, value) in pairs { if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) } }
        return fields
    }

    @Test func readsSelectFiltersOrderAndPaging() throws {
        let request = try RESTReadRequest(
            query: "select=id,title:name&name=eq.Park&order=name.desc&limit=5&offset=10",
            headers: [:], head: false)
        #expect(request.query.select == [.column(name: "id", alias: nil), .column(name: "name", alias: "title")])
        #expect(request.query.filters == [.predicate(column: "name", negated: false, op: .eq, value: .scalar("Park"))])
        #expect(request.query.order == [OrderTerm(column: "name", ascending: false)])
        #expect(request.query.limit == 5 && request.query.offset == 10)
        #expect(request.media == .array && !request.countExact && request.range == nil)
    }

    @Test func negotiatesAcceptAsPostgRESTDoes() throws {
        #expect(try RESTReadRequest(query: nil, headers: headers([("Accept", "application/vnd.pgrst.object+json")]), head: false).media == .object)
        #expect(try RESTReadRequest(query: nil, headers: headers([("Accept", "text/html;q=0, */*")]), head: false).media == .array)
        // A refused first choice falls through to the next acceptable one.
        #expect(
            try RESTReadRequest(
                query: nil, headers: headers([("Accept", "application/vnd.pgrst.object;q=0, application/json")]),
                head: false
            ).media == .array)
        let refusal = #expect(throws: RESTError.self) {
            try RESTReadRequest(query: nil, headers: headers([("Accept", "text/csv, image/png")]), head: false)
        }
        #expect(refusal?.status == .notAcceptable && refusal?.code.rawValue == "PGRST107")
        #expect(refusal?.message.contains("text/csv, image/png") == true)
    }

    @Test func readsPreferCountAcrossLinesAndEntries() throws {
        let request = try RESTReadRequest(
            query: nil, headers: headers([("Prefer", "return=minimal"), ("Prefer", "tx=commit, count=exact")]),
            head: false)
        #expect(request.countExact)
        #expect(RESTPreferences.list(headers([("Prefer", " a=1 ,b=2"), ("Prefer", "c=3")])) == ["a=1", "b=2", "c=3"])
    }

    @Test func readsRangeForGETButNotHEAD() throws {
        let get = try RESTReadRequest(query: nil, headers: headers([("Range", "5-9")]), head: false)
        #expect(get.range == RESTRange(from: 5, to: 9))
        let head = try RESTReadRequest(query: nil, headers: headers([("Range", "5-9")]), head: true)
        #expect(head.range == nil)
        // Not a range at all: ignored, as PostgREST ignores it.
        #expect(try RESTRange.parse("items=1-2") == nil)
        #expect(try RESTRange.parse("-5") == nil)
        #expect(try RESTRange.parse("7-") == RESTRange(from: 7, to: nil))
        // Past what Int holds: no bound.
        #expect(try RESTRange.parse("0-99999999999999999999999") == RESTRange(from: 0, to: Int.max))
        let reversed = #expect(throws: RESTError.self) { try RESTRange.parse("9-5") }
        #expect(reversed?.status == .rangeNotSatisfiable && reversed?.code.rawValue == "PGRST103")
    }

    @Test func refusesABadQueryBeforeARange() {
        // The query string is read before `Range`, so its 400 wins over the range's 416.
        let refusal = #expect(throws: RESTError.self) {
            try RESTReadRequest(query: "select=a b(", headers: headers([("Range", "9-5")]), head: false)
        }
        #expect(refusal?.code.rawValue == "PGRST100")
    }

    @Test func readsAWriteAndItsPreferences() async throws {
        let body = Data(#"[{"name":"A","id":1},{"id":2,"name":"B"}]"#.utf8)
        let request = try await RESTWriteRequest.read(
            kind: .insert, put: false, query: "select=id&on_conflict=id",
            headers: headers([("Prefer", "return=representation,resolution=merge-duplicates,count=exact")])
        ) { body }
        #expect(request.parsed.rows.count == 2 && request.parsed.columns == ["id", "name"])
        #expect(request.parsed.returning == .representation && request.parsed.resolution == .mergeDuplicates)
        #expect(request.parsed.countExact && request.parsed.onConflict == ["id"])
        #expect(request.parsed.select == [.column(name: "id", alias: nil)])
    }

    @Test func refusesAWriteBodyOfMismatchedKeys() async {
        let refusal = await #expect(throws: RESTError.self) {
            try await RESTWriteRequest.read(kind: .insert, put: false, query: nil, headers: [:]) { Data(#"[{"a":1},{"b":2}]"#.utf8) }
        }
        #expect(refusal?.code.rawValue == "PGRST102")
    }

    @Test func refusesAnUnanswerableAcceptBeforeReadingTheBody() async {
        let refusal = await #expect(throws: RESTError.self) {
            try await RESTWriteRequest.read(kind: .insert, put: false, query: nil, headers: headers([("Accept", "text/csv")])) {
                Issue.record("the body was read")
                return Data()
            }
        }
        #expect(refusal?.code.rawValue == "PGRST107")
    }
}
