import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalPostgres
import LifeSignalTestSupport
import Testing

/// `SQL.inlined()` and `lifesignal_run_as`: the one-round-trip read path on PostgreSQL.
@Suite("SQL inlined for one-round-trip reads")
struct InlinedSQLTests {
    @Test("each binding becomes a literal of the type it would have been bound as")
    func literals() {
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        let sql: SQL =
            "SELECT \(SQLValue.literal("a'b\\c")), \(SQLValue.text("t")), \(Int?(-7)), \(SQLValue.uuid(id)), \(Bool?(true)), \(SQLValue.null), \(1.5)"
        #expect(sql.inlined() == "SELECT E'a''b\\\\c', E't'::text, '-7'::int8, '6f9619ff-8b86-d011-b42d-00c04fc964ff'::uuid, true, NULL, '1.5'::float8")
    }

    @Test("placeholder-like text inside quotes is left alone, and numbering follows appended fragments")
    func quotedDollars() {
        let sql = SQL("SELECT '$1', \"$2\", ") + SQL("$1", bindings: [.literal("x")])
        #expect(sql.inlined() == "SELECT '$1', \"$2\", E'x'")
    }

    @Test("placeholders are found next to multi-byte text, and a $ without digits or with too many stays text")
    func placeholdersBesideUnicode() {
        let sql = SQL("SELECT 'é$1', \"Zoë\" = $1, 🚨$2, $, $x, $1234567890123456789") + SQL("ñ$1", bindings: [.literal("ü")])
        #expect(sql.sqliteText == "SELECT 'é$1', \"Zoë\" = ?1, 🚨?2, $, $x, $1234567890123456789ñ?1")
        let joined = SQL("a = $1", bindings: [.literal("1")]) + SQL(" AND b = $1 -- café", bindings: [.literal("2")])
        #expect(joined.text == "a = $1 AND b = $2 -- café")
        #expect(joined.inlined() == "a = E'1' AND b = E'2' -- café")
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
        let statement = SQL(
            """
            SELECT current_user::text || '|' || current_setting('request.jwt.claims') || '|' || $1 AS body, 3::bigint AS n, 7::bigint AS total
            """, bindings: [.literal("O'Brien \\ $1")])
        // Twice on one pool: the second call runs the statement the connection has prepared.
        for _ in 0..<2 {
            let page = try #require(try await postgres.readPageAsCaller(role: "anon", claims: "{\"role\":\"anon\"}", statement: statement))
            #expect(page.body == "anon|{\"role\":\"anon\"}|O'Brien \\ $1")
            #expect(page.rows == 3)
            #expect(page.total == 7)
        }
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

    @Test("an anonymous read runs as anon in UTC with its own claims, on connections of its own, under anon's grants")
    func anonymousReads() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let postgres = try #require(test.backend.database as? PostgresDatabase)
        let statement = SQL(
            """
            SELECT current_user::text || '|' || current_setting('request.jwt.claims') || '|' || current_setting('TimeZone') || '|' || $1
                   AS body, 2::bigint AS n, NULL::bigint AS total
            """, bindings: [.text("it's")])
        // Concurrent reads open several connections; the claims alternate, so connections see
        // both a first setting and a change.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let claims = index % 2 == 0 ? "{\"role\":\"anon\"}" : "{\"iss\":\"supabase\",\"role\":\"anon\"}"
                    let page = try await postgres.readPageAsAnonymous(claims: claims, statement: statement)
                    #expect(page.body == "anon|\(claims)|UTC|it's")
                    #expect(page.rows == 2)
                    #expect(page.total == nil)
                }
            }
            try await group.waitForAll()
        }
        // The server's own pool is untouched.
        let after = try await test.backend.database.transaction { try await $0.first("SELECT current_user::text AS who") }
        #expect(try after?.string("who") != "anon")

        // anon holds no grant on users: PostgreSQL refuses, as for any anonymous read of it.
        let refused = SQL("SELECT coalesce(json_agg(_r), '[]')::text AS body, count(*) AS n, NULL::bigint AS total FROM (SELECT id FROM users) _r")
        await #expect(throws: DatabaseError.self) {
            _ = try await postgres.readPageAsAnonymous(claims: "{\"role\":\"anon\"}", statement: refused)
        }
    }
}
