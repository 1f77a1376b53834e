import Foundation
import LifeSignalBackend

extension PostgresDatabase {
    /// The transaction takes the caller's role and publishes their claims as
    /// `request.jwt.claims`, where `auth.uid()` reads them, so grants and row-level security
    /// decide, the way PostgREST runs a request.
    public func transaction<T: Sendable>(as caller: CallerSettings, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws
        -> T
    {
        try await transaction { connection in
            try await connection.query(
                """
                SELECT set_config('role', \(caller.role.rawValue), true), set_config('request.jwt.claims', \(caller.claims), true),
                       set_config('timezone', 'UTC', true)
                """)
            return try await body(connection)
        }
    }

    /// One statement returning one row of `body text, n bigint, total bigint`: PostgreSQL
    /// writes the JSON itself (`json_agg`), and the statement's prepared name is worked out
    /// once here rather than on every read.
    public func preparePage(select: SQL, count: SQL?) -> PageQuery {
        PageQuery(select: select, count: count, prepared: PostgresPage(Self.pageStatement(select: select, count: count)))
    }

    static func pageStatement(select: SQL, count: SQL?) -> SQL {
        SQL.raw("SELECT coalesce(json_agg(_r), '[]')::text AS body, count(*) AS n, ")
            + (count.map { SQL.raw("(") + $0 + SQL.raw(")") } ?? SQL.raw("NULL::bigint")) + SQL.raw(" AS total FROM (")
            + select + SQL.raw(") _r")
    }

    /// One round trip (two for a signed-in person) where a transaction takes four, and the
    /// page and the total from one snapshot: an anonymous read runs as it is on connections
    /// already logged in as `anon` (``readPageAsAnonymous(claims:page:)``), a signed-in
    /// person's on connections logged in as `authenticated` with their claims set first
    /// (``readPageAsAuthenticated(claims:page:)``), any other through
    /// ``readPageAsCaller(role:claims:statement:)``; `nil` for a read whose values cannot
    /// travel as text.
    public func readPage(_ page: PageQuery, as caller: CallerSettings, render: @escaping @Sendable ([SQLRow]) -> String) async throws
        -> PageResult?
    {
        let prepared = page.prepared as? PostgresPage ?? PostgresPage(Self.pageStatement(select: page.select, count: page.count))
        switch caller.role {
        case .anon: return try await readPageAsAnonymous(claims: caller.claims, page: prepared)
        case .authenticated: return try await readPageAsAuthenticated(claims: caller.claims, page: prepared)
        default: return try await readPageAsCaller(role: caller.role.rawValue, claims: caller.claims, statement: prepared.statement)
        }
    }

    /// Deadlines for statements and for a connection from the pool.
    public func apply(_ limits: DatabaseLimits) {
        unavailableAfter = limits.unavailableAfter
        statementDeadline = limits.statementDeadline
    }

    public func notifications(on channel: String, onListening: @escaping @Sendable () -> Void) -> AsyncThrowingStream<String, any Error>? {
        listen(channel: channel, onListening: onListening)
    }
}
