import Foundation
import LifeSignalBackend
import LifeSignalBackendPostgres

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
        let claimsJSON = Self.claimsJSON(caller: caller, claims: claims)
        let role = DatabaseRole.acting(as: caller, claims: claims)
        return try await database.transaction { connection in
            if connection.dialect == .postgres {
                try await connection.query(
                    """
                    SELECT set_config('role', \(role.rawValue), true), set_config('request.jwt.claims', \(claimsJSON), true),
                           set_config('timezone', 'UTC', true)
                    """)
            }
            return try await body(connection)
        }
    }

    /// A read's page as PostgREST's JSON array, its row count, and the total `count` finds.
    ///
    /// On PostgreSQL this is one round trip (two for a signed-in person) where ``run(caller:claims:_:)`` takes four, and the
    /// page and the total come from one snapshot: an anonymous read runs as it is on
    /// connections already logged in as `anon` (``PostgresDatabase/readPageAsAnonymous(claims:statement:)``),
    /// a signed-in person's on connections logged in as `authenticated` with their claims set
    /// first (two round trips, ``PostgresDatabase/readPageAsAuthenticated(claims:statement:)``),
    /// any other through ``PostgresDatabase/readPageAsCaller(role:claims:statement:)``; a read
    /// whose values cannot travel as text takes the transaction path. On SQLite the page is
    /// read on a read-only connection, without a transaction when it is one statement.
    func readPage(
        caller: Caller, claims: TokenClaims?, select: SQL, count: SQL?,
        columns: [(name: String, column: ColumnSchema)], page: PostgresPage? = nil
    ) async throws -> (body: String, rows: Int, total: Int?) {
        if let postgres = database as? PostgresDatabase {
            let page = page ?? PostgresPage(Self.pageStatement(select: select, count: count))
            let claimsJSON = Self.claimsJSON(caller: caller, claims: claims)
            if caller == .anonymous {
                return try await postgres.readPageAsAnonymous(claims: claimsJSON, page: page)
            }
            let role = DatabaseRole.acting(as: caller, claims: claims)
            if role == .authenticated {
                return try await postgres.readPageAsAuthenticated(claims: claimsJSON, page: page)
            }
            if let page = try await postgres.readPageAsCaller(role: role.rawValue, claims: claimsJSON, statement: page.statement) {
                return page
            }
        }
        // On SQLite the statements carry the policies themselves, so any caller's read can
        // take a read-only connection instead of the writer's turn; a read without a count
        // is one statement, its own snapshot, and needs no transaction around it.
        if let sqlite = database as? SQLiteDatabase {
            guard let count else {
                let rows = try await sqlite.readStatement(select)
                return (JSONRenderer.array(rows, columns: columns), rows.count, nil)
            }
            let results = try await sqlite.readSnapshot([count, select])
            let rows = results.last ?? []
            return (JSONRenderer.array(rows, columns: columns), rows.count, try results.first?.first?.int("total"))
        }
        let page: @Sendable (any SQLConnection) async throws -> (body: String, rows: Int, total: Int?) = { connection in
            var total: Int?
            if let count { total = try await connection.first(count)?.int("total") }
            let (body, rows) = try await Self.jsonArray(select, columns: columns, on: connection)
            return (body, rows, total)
        }
        return try await run(caller: caller, claims: claims, page)
    }

    /// On PostgreSQL, a page and its total as one statement returning one row of
    /// `body text, n bigint, total bigint`: PostgreSQL writes the JSON itself (`json_agg`).
    static func pageStatement(select: SQL, count: SQL?) -> SQL {
        SQL.raw("SELECT coalesce(json_agg(_r), '[]')::text AS body, count(*) AS n, ")
            + (count.map { SQL.raw("(") + $0 + SQL.raw(")") } ?? SQL.raw("NULL::bigint")) + SQL.raw(" AS total FROM (")
            + select + SQL.raw(") _r")
    }

    /// The claims as `request.jwt.claims`, with the caller's role (`authenticated` for an
    /// editor too: `auth.role()` reads the token's role, as on Supabase, while the statements
    /// run as `content_editor`).
    private static func claimsJSON(caller: Caller, claims: TokenClaims?) -> String {
        // The API keys' claims are the role alone; no encoder needed for most reads.
        guard var effective = claims else { return "{\"role\":\"\(caller.role.rawValue)\"}" }
        effective.role = caller.role.rawValue
        return (try? JSONEncoder().encode(effective)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }

    /// Runs a `SELECT` and returns its rows as PostgREST's JSON array with the row count:
    /// PostgreSQL writes the JSON itself (`json_agg`), SQLite's rows are rendered from the
    /// schema cache's column types.
    static func jsonArray(_ select: SQL, columns: [(name: String, column: ColumnSchema)], on connection: any SQLConnection) async throws -> (
        body: String, count: Int
    ) {
        if connection.dialect == .postgres {
            let wrapped = SQL.raw("SELECT coalesce(json_agg(_r), '[]')::text AS body, count(*) AS n FROM (") + select + SQL.raw(") _r")
            let row = try await connection.first(wrapped)
            return (try row?.string("body") ?? "[]", try row?.int("n") ?? 0)
        }
        let rows = try await connection.query(select)
        return (JSONRenderer.array(rows, columns: columns), rows.count)
    }
}
