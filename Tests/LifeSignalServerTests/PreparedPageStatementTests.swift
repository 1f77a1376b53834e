import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

@testable import LifeSignalPostgres

/// Page reads on PostgreSQL run as named prepared statements, but a connection never holds
/// more than ``PreparedStatements/limit`` of them, and a statement that cannot be prepared
/// still answers.
@Suite("PostgreSQL page reads: prepared statements")
struct PreparedPageStatementTests {
    static func page(_ marker: Int) -> SQL {
        SQL(
            "SELECT json_build_array($1::int, \(marker))::text AS body, 1::bigint AS n, NULL::bigint AS total",
            bindings: [.int(Int64(marker))])
    }

    @Test("each of many shapes answers rightly, twice; no connection prepares more than the limit")
    func manyShapesStayBounded() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let database = try #require(test.backend.database as? PostgresDatabase)
        let shapes = PreparedStatements.limit * 2
        for round in 0..<2 {
            for marker in 0..<shapes {
                let page = try await database.readPageAsAnonymous(claims: #"{"role":"anon"}"#, statement: Self.page(marker))
                #expect(page.body == "[\(marker), \(marker)]", "shape \(marker), round \(round)")
            }
        }
        for _ in 0..<8 {
            let page = try await database.readPageAsAnonymous(
                claims: #"{"role":"anon"}"#,
                statement: "SELECT (SELECT count(*) FROM pg_prepared_statements)::text AS body, 1::bigint AS n, NULL::bigint AS total")
            let held = try #require(Int(page.body))
            #expect(held > 0, "nothing was prepared")
            #expect(held <= PreparedStatements.limit)
        }
    }

    @Test("a statement PostgreSQL refuses to prepare fails like an unnamed one, and the next shape still answers")
    func aRefusedPreparationFailsPlainly() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let database = try #require(test.backend.database as? PostgresDatabase)
        let broken: SQL = "SELECT no_such_column::text AS body, 1::bigint AS n, NULL::bigint AS total"
        for _ in 0..<3 {
            await #expect(throws: DatabaseError.self) {
                _ = try await database.readPageAsAnonymous(claims: #"{"role":"anon"}"#, statement: broken)
            }
        }
        let page = try await database.readPageAsAnonymous(claims: #"{"role":"anon"}"#, statement: Self.page(7))
        #expect(page.body == "[7, 7]")
    }
}
