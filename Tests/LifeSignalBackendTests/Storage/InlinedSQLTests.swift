import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

/// `SQL.inlined()` and `lifesignal_run_as`: the one-round-trip read path on PostgreSQL.
@Suite("SQL inlined for one-round-trip reads")
struct InlinedSQLTests {
    @Test("each binding becomes a literal of the type it would have been bound as")
    func literals() {
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let sql: SQL = "SELECT \(SQLValue.literal("a'b\\c")), \(SQLValue.text("t")), \(Int?(-7)), \(SQLValue.uuid(id)), \(Bool?(true)), \(SQLValue.null), \(1.5)"
        #expect(sql.inlined() == "SELECT E'a''b\\\\c', E't'::text, '-7'::int8, '6f9619ff-8b86-d011-b42d-00c04fc964ff'::uuid, true, NULL, '1.5'::float8")
    }

    @Test("placeholder-like text inside quotes is left alone, and numbering follows appended fragments")
    func quotedDollars() {
        let sql = SQL("SELECT '$1', \"$2\", ") + SQL("$1", bindings: [.literal("x")])
        #expect(sql.inlined() == "SELECT '$1', \"$2\", E'x'")
    }

    @Test("values that cannot travel as text make the statement fall back to bound parameters")
    func refusals() {
        #expect(SQL("SELECT $1", bindings: [.literal("a\u{0}b")]).inlined() == nil, "a NUL would end the query text early")
        #expect(SQL("SELECT $1", bindings: [.timestamp(Date())]).inlined() == nil)
        #expect(SQL("SELECT $1", bindings: [.json("{}")]).inlined() == nil)
        #expect(SQL("SELECT $1", bindings: [.bytes(Data([1]))]).inlined() == nil)
        #expect(SQL("SELECT $2", bindings: [.literal("only one")]).inlined() == nil, "a placeholder without a value")
    }

    @Test("lifesignal_run_as runs the statement under the caller's role and claims, and nobody else may call it")
    func runAs() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let postgres = try #require(test.backend.database as? PostgresDatabase)
        let statement = SQL("SELECT current_user::text AS who, current_setting('request.jwt.claims') AS claims, $1 AS echoed",
                            bindings: [.literal("O'Brien \\ $1")])
        let rows = try #require(try await postgres.queryAsCaller(role: "anon", claims: "{\"role\":\"anon\"}", statement: statement,
                                                                   columns: "who text, claims text, echoed text"))
        #expect(try rows.map { try $0.string("who") } == ["anon"])
        #expect(try rows.first?.string("claims") == "{\"role\":\"anon\"}")
        #expect(try rows.first?.string("echoed") == "O'Brien \\ $1")
        // The role ended with the statement: the pool's connection is the server's own login again.
        let after = try await test.backend.database.transaction { try await $0.first("SELECT current_user::text AS who") }
        #expect(try after?.string("who") != "anon")

        // A caller's role cannot use the function to become someone else.
        await #expect(throws: DatabaseError.self) {
            try await test.backend.database.transaction { connection in
                try await connection.query("SET LOCAL ROLE anon")
                try await connection.query("SELECT * FROM lifesignal_run_as('service_role', '{}', 'SELECT 1') AS _r(x int)")
            }
        }
    }
}
