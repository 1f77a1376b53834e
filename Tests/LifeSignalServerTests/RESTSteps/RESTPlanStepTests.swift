import Foundation
import HTTPTypes
import LifeSignalTestSupport
import Testing

@testable import LifeSignalBackend
@testable import LifeSignalServer

/// Steps 2 and 3 of `/rest/v1` alone: a parsed request against the schema cache of a migrated
/// database (read once, as the server reads it), as a caller, into a plan and its SQL. No
/// statement runs and no server starts.
@Suite("REST steps 2 and 3: plan and SQL")
struct RESTPlanStepTests {
    /// A table the tests describe themselves.
    static func table(name: String, columns: [ColumnSchema]) -> TableSchema {
        TableSchema(name: name, columns: columns)
    }

    /// The exposed `locations` table, as the schema cache holds it after the migrations.
    private func locations() async throws -> TableSchema {
        let test = try await TestDatabases.backend(.sqlite)
        let tables = try await Introspection.tables(in: test.backend.database)
        return try #require(tables["locations"])
    }

    private func read(
        _ query: String, range: String? = nil, maxRows: Int? = 1_000, caller: Caller = .anonymous,
        dialect: SQLDialect = .sqlite, table: TableSchema
    ) throws -> RESTReadPlan {
        var headers = HTTPFields()
        if let range { headers[rangeField] = range }
        let request = try RESTReadRequest(query: query, headers: headers, head: false)
        return try RESTReadPlan(request, table: table, dialect: dialect, caller: caller, claims: nil, maxRows: maxRows)
    }

    @Test func theRangeIsIntersectedWithLimitAndOffsetAndTheRowCap() async throws {
        let table = try await locations()
        let ranged = try read("select=id&limit=10&offset=2", range: "5-100", table: table)
        #expect(ranged.query.offset == 5 && ranged.query.limit == 7)
        let capped = try read("select=id", maxRows: 50, table: table)
        #expect(capped.query.limit == 50)
        let uncapped = try read("select=id", maxRows: nil, table: table)
        #expect(uncapped.query.limit == nil)
        let overflow = try read("select=id&offset=3&limit=\(Int.max)", range: "0-", maxRows: nil, table: table)
        // No trap on overflow: the page runs from the offset to the largest bound `Int` holds.
        #expect(overflow.query.offset == 3 && overflow.query.limit == Int.max - 2)
    }

    @Test func columnsAreCheckedAgainstTheSchemaAndTheRole() async throws {
        let table = try await locations()
        let plan = try read("select=id,label:name", table: table)
        #expect(plan.columns.map(\.name) == ["id", "label"])
        let unknown = #expect(throws: RESTError.self) { try read("select=no_such_column", table: table) }
        #expect(unknown?.code.rawValue == "42703")
        // Who created a record is for editors only: anonymous callers are refused the column.
        let hidden = #expect(throws: RESTError.self) { try read("select=created_by", table: table) }
        #expect(hidden?.code.rawValue == "42501" && hidden?.status == .unauthorized)
        let star = try read("select=*", table: table)
        #expect(!star.columns.map(\.name).contains("created_by"))
        #expect(try read("select=*", caller: .service, table: table).columns.map(\.name).contains("created_by"))
    }

    /// A bound `LIMIT` made both engines plan the kept page statement again on every
    /// execution; written into the text it is planned once per connection.
    @Test func limitAndOffsetAreWrittenIntoTheStatementOnBothEngines() async throws {
        let table = try await locations()
        let postgres = try read("select=id&limit=20&offset=40", dialect: .postgres, table: table).select()
        #expect(postgres.text.hasSuffix(" LIMIT 20 OFFSET 40"), "\(postgres.text)")
        #expect(postgres.bindings.isEmpty)
        let sqlite = try read("select=id&limit=20&offset=40", dialect: .sqlite, table: table).select()
        #expect(sqlite.text.hasSuffix(" LIMIT 20 OFFSET 40"), "\(sqlite.text)")
        #expect(!sqlite.bindings.contains(.int(20)) && !sqlite.bindings.contains(.int(40)), "\(sqlite.bindings)")
    }

    @Test func theSQLCarriesThePolicyOnSQLiteAndLeavesItToPostgreSQL() async throws {
        let table = try await locations()
        let anonymous = try read("select=id&name=eq.Park&order=name.desc", table: table)
        let sql = try anonymous.select()
        #expect(sql.text.contains("FROM \"locations\" WHERE ("))
        #expect(sql.text.contains("ORDER BY \"name\" DESC"))
        #expect(sql.text.contains("LIMIT"))
        #expect(try anonymous.count() == nil)
        let service = try read("select=id", caller: .service, table: table).select()
        #expect(!service.text.contains("WHERE"))
        let postgres = try read("select=id", dialect: .postgres, table: table).select()
        #expect(!postgres.text.contains("WHERE"))
        let counted = try RESTReadPlan(
            try RESTReadRequest(query: "select=id", headers: [preferField: "count=exact"], head: false),
            table: table, dialect: .sqlite, caller: .anonymous, claims: nil, maxRows: nil)
        #expect(try counted.count()?.text.hasPrefix("SELECT count(*) AS total FROM \"locations\"") == true)
    }

    private func write(
        _ kind: WritePlan.Kind, put: Bool = false, query: String?, body: String = #"{"name":"A"}"#,
        caller: Caller, table: TableSchema
    ) async throws -> PlannedWrite? {
        let request = try await RESTWriteRequest.read(kind: kind, put: put, query: query, headers: [:]) { Data(body.utf8) }
        return try PlannedWrite.make(request, table: table, dialect: .sqlite, caller: caller, claims: nil)
    }

    @Test func writesNeedTheRolesGrantAndAFilter() async throws {
        let table = try await locations()
        let refused = await #expect(throws: RESTError.self) { try await write(.insert, query: nil, caller: .anonymous, table: table) }
        #expect(refused?.code.rawValue == "42501" && refused?.status == .unauthorized)
        let unfiltered = await #expect(throws: RESTError.self) { try await write(.delete, query: nil, caller: .service, table: table) }
        #expect(unfiltered?.code.rawValue == "21000" && unfiltered?.status == .badRequest)
        // A PATCH that sets nothing plans no SQL at all.
        #expect(try await write(.update, query: "id=eq.1", body: "{}", caller: .service, table: table) == nil)
        let delete = try #require(try await write(.delete, query: "id=eq.1", caller: .service, table: table))
        #expect(try delete.builder.delete(plan: delete.plan).text.hasPrefix("DELETE FROM \"locations\" WHERE"))
    }

    @Test func aPUTBecomesAnUpsertOnThePrimaryKey() async throws {
        let table = try await locations()
        let id = UUID().uuidString.lowercased()
        let plan = try #require(
            try await write(
                .insert, put: true, query: "id=eq.\(id)", body: #"{"id":"\#(id)","name":"A"}"#,
                caller: .service, table: table))
        #expect(plan.plan.resolution == .mergeDuplicates && plan.plan.onConflict == ["id"] && plan.plan.filters.isEmpty)
        let mismatch = await #expect(throws: RESTError.self) {
            try await write(.insert, put: true, query: "id=eq.\(id)", body: #"{"id":"other","name":"A"}"#, caller: .service, table: table)
        }
        #expect(mismatch?.code.rawValue == "PGRST115")
        let notTheKey = await #expect(throws: RESTError.self) {
            try await write(.insert, put: true, query: "name=eq.A", caller: .service, table: table)
        }
        #expect(notTheKey?.code.rawValue == "PGRST105")
    }
}
