import Foundation
import LifeSignalBackend

/// Statements run as a request's caller, the way PostgREST runs them.
///
/// On PostgreSQL the transaction takes the caller's role and publishes their claims as
/// `request.jwt.claims`, where `auth.uid()` reads them, so grants and row-level security
/// decide; on SQLite the statements themselves carry the declared policies (see
/// ``RESTSQLBuilder``). `/rest/v1` and Realtime both read through here, so a subscriber sees
/// a changed row exactly as a GET by the same caller would.
struct CallerTransaction: Sendable {
    let database: any Database

    func run<T: Sendable>(caller: Caller, claims: TokenClaims?, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let claimsJSON: String = {
            // The API keys' claims are the role alone; no encoder needed for most reads.
            guard var effective = claims else { return "{\"role\":\"\(caller.role.rawValue)\"}" }
            effective.role = caller.role.rawValue
            return (try? JSONEncoder().encode(effective)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
        }()
        return try await database.transaction { connection in
            if connection.dialect == .postgres {
                try await connection.query("""
                    SELECT set_config('role', \(caller.role.rawValue), true), set_config('request.jwt.claims', \(claimsJSON), true),
                           set_config('timezone', 'UTC', true)
                    """)
            }
            return try await body(connection)
        }
    }

    /// Runs a `SELECT` and returns its rows as PostgREST's JSON array with the row count:
    /// PostgreSQL writes the JSON itself (`json_agg`), SQLite's rows are rendered from the
    /// schema cache's column types.
    static func jsonArray(_ select: SQL, columns: [(name: String, column: ColumnSchema)], on connection: any SQLConnection) async throws -> (body: String, count: Int) {
        if connection.dialect == .postgres {
            let wrapped = SQL.raw("SELECT coalesce(json_agg(_r), '[]')::text AS body, count(*) AS n FROM (") + select + SQL.raw(") _r")
            let row = try await connection.first(wrapped)
            return (try row?.string("body") ?? "[]", try row?.int("n") ?? 0)
        }
        let rows = try await connection.query(select)
        return (JSONRenderer.array(rows, columns: columns), rows.count)
    }
}
