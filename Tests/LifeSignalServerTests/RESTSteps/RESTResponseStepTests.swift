import Foundation
import HTTPTypes
import LifeSignalBackend
import LifeSignalDomain
import Testing

@testable import LifeSignalServer

/// Step 4 of `/rest/v1` alone: a page or written rows in, PostgREST's status, headers and
/// body out (ranges, counts, `Prefer`, negotiation), with no database or server.
@Suite("REST step 4: response")
struct RESTResponseStepTests {
    @Test func anArrayPageWithoutACount() throws {
        let reply = try RESTReadResponse.make((body: #"[{"id":1},{"id":2}]"#, rows: 2, total: nil), offset: 10, singular: false, head: false)
        #expect(reply.status == .ok)
        #expect(reply.headers[contentRangeField] == "10-11/*")
        #expect(reply.headers[preferenceAppliedField] == nil)
        #expect(reply.headers[.contentType] == JSONResponse.contentType)
        #expect(reply.body == #"[{"id":1},{"id":2}]"#)
    }

    @Test func anEmptyPage() throws {
        let reply = try RESTReadResponse.make((body: "[]", rows: 0, total: nil), offset: 0, singular: false, head: false)
        #expect(reply.status == .ok && reply.headers[contentRangeField] == "*/*" && reply.body == "[]")
    }

    @Test func exactCountsArePartialWhenThePageIsNotEverything() throws {
        let partial = try RESTReadResponse.make((body: #"[{"id":1}]"#, rows: 1, total: 3), offset: 0, singular: false, head: false)
        #expect(partial.status == .partialContent)
        #expect(partial.headers[contentRangeField] == "0-0/3")
        #expect(partial.headers[preferenceAppliedField] == "count=exact")
        let whole = try RESTReadResponse.make((body: #"[{"id":1}]"#, rows: 1, total: 1), offset: 0, singular: false, head: false)
        #expect(whole.status == .ok && whole.headers[contentRangeField] == "0-0/1")
    }

    @Test func anOffsetPastTheEndIs416WithTheTotal() {
        let refusal = #expect(throws: RESTError.self) {
            try RESTReadResponse.make((body: "[]", rows: 0, total: 3), offset: 5, singular: false, head: false)
        }
        #expect(refusal?.status == .rangeNotSatisfiable && refusal?.code.rawValue == "PGRST103")
        #expect(refusal?.headers[contentRangeField] == "*/3")
        #expect(refusal?.response.headers[contentRangeField] == "*/3")
    }

    @Test func oneObjectIsUnwrappedAndAnythingElseIs406() throws {
        let one = try RESTReadResponse.make((body: #"[{"id":1}]"#, rows: 1, total: nil), offset: 0, singular: true, head: false)
        #expect(one.body == #"{"id":1}"#)
        #expect(one.headers[.contentType] == "application/vnd.pgrst.object+json; charset=utf-8")
        let refusal = #expect(throws: RESTError.self) {
            try RESTReadResponse.make((body: "[]", rows: 0, total: nil), offset: 0, singular: true, head: false)
        }
        #expect(refusal?.status == .notAcceptable && refusal?.code.rawValue == "PGRST116" && refusal?.details == "The result contains 0 rows")
    }

    @Test func aHEADHasTheHeadersAndNoBody() throws {
        let reply = try RESTReadResponse.make((body: #"[{"id":1}]"#, rows: 1, total: 4), offset: 2, singular: false, head: true)
        #expect(reply.body == nil && reply.status == .partialContent && reply.headers[contentRangeField] == "2-2/4")
    }

    private func write(
        _ kind: WritePlan.Kind, returning: WritePlan.Return = .minimal, resolution: WritePlan.Resolution? = nil,
        countExact: Bool = false, singular: Bool = false, put: Bool = false
    ) -> PlannedWrite {
        var plan = WritePlan(kind: kind)
        plan.returning = returning
        plan.resolution = resolution
        plan.countExact = countExact
        let table = ColumnSchema(name: "id", type: "integer", isPrimaryKey: true)
        let builder = RESTSQLBuilder(
            table: RESTPlanStepTests.table(name: "things", columns: [table]), dialect: .sqlite,
            caller: .service, claims: nil)
        return PlannedWrite(kind: kind, plan: plan, builder: builder, columns: [("id", table)], singular: singular, put: put)
    }

    private let rows = [SQLRow(columns: ["id"], values: [.int(1)]), SQLRow(columns: ["id"], values: [.int(2)])]

    @Test func anInsertIs201WithItsPreferencesApplied() {
        let reply = RESTWriteResponse.make(write(.insert, returning: .representation, countExact: true), rows: rows, inserted: 2)
        #expect(reply.status == .created)
        #expect(reply.headers[preferenceAppliedField] == "return=representation, count=exact")
        #expect(reply.headers[contentRangeField] == "*/2")
        #expect(reply.body == #"[{"id":1},{"id":2}]"#)
    }

    @Test func anUpsertThatOnlyUpdatedIs200() {
        let updated = RESTWriteResponse.make(write(.insert, resolution: .mergeDuplicates), rows: rows, inserted: 0)
        #expect(updated.status == .ok && updated.body == nil)
        #expect(updated.headers[preferenceAppliedField] == "resolution=merge-duplicates")
        let mixed = RESTWriteResponse.make(write(.insert, resolution: .mergeDuplicates), rows: rows, inserted: 1)
        #expect(mixed.status == .created)
    }

    @Test func anUpdateNamesTheRowsItChanged() {
        let minimal = RESTWriteResponse.make(write(.update), rows: rows, inserted: 0)
        #expect(minimal.status == .noContent && minimal.headers[contentRangeField] == "0-1/*" && minimal.body == nil)
        let none = RESTWriteResponse.make(write(.update, countExact: true), rows: [], inserted: 0)
        #expect(none.headers[contentRangeField] == "*/0")
        let one = RESTWriteResponse.make(write(.update, returning: .representation, singular: true), rows: [rows[0]], inserted: 0)
        #expect(one.status == .ok && one.body == #"{"id":1}"#)
        #expect(one.headers[.contentType] == "application/vnd.pgrst.object+json; charset=utf-8")
    }

    @Test func aPUTReturnsNothingUnlessAsked() {
        let reply = RESTWriteResponse.make(write(.insert, resolution: .mergeDuplicates, put: true), rows: [rows[0]], inserted: 0)
        #expect(reply.status == .noContent && reply.headers[contentRangeField] == "*/*" && reply.headers[preferenceAppliedField] == nil)
    }
}

// Spelled out: another module of the test target names these fields too.
let contentRangeField = HTTPField.Name("Content-Range")!
let rangeField = HTTPField.Name("Range")!
let preferenceAppliedField = HTTPField.Name("Preference-Applied")!
let preferField = HTTPField.Name("Prefer")!
