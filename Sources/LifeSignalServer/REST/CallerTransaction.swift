import Foundation
import LifeSignalBackend

/// Statements run as a request's caller, the way PostgREST runs them.
///
/// The engine decides how (``Database/transaction(as:_:)``): PostgreSQL takes the caller's
/// role and claims, so grants and row-level security decide; on SQLite the statements
/// themselves carry the declared policies (see ``RESTSQLBuilder``). `/rest/v1` and Realtime
/// both read through here, so a subscriber sees a changed row exactly as a GET by the same
/// caller would.
struct CallerTransaction: Sendable {
    let database: any Database

    func run<T: Sendable>(caller: Caller, claims: TokenClaims?, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await database.transaction(as: Self.settings(caller: caller, claims: claims), body)
    }

    /// A read's page as PostgREST's JSON array, its row count, and the total `count` finds:
    /// the engine's fastest way (``Database/readPage(_:as:render:)``), else a transaction as
    /// the caller.
    func readPage(caller: Caller, claims: TokenClaims?, page: PageQuery, columns: [(name: String, column: ColumnSchema)]) async throws
        -> PageResult
    {
        let settings = Self.settings(caller: caller, claims: claims)
        let render: @Sendable ([SQLRow]) -> String = { JSONRenderer.array($0, columns: columns) }
        if let result = try await database.readPage(page, as: settings, render: render) { return result }
        return try await database.transaction(as: settings) { connection in
            var total: Int?
            if let count = page.count { total = try await connection.first(count)?.int("total") }
            let (body, rows) = try await connection.renderedArray(page.select, render: render)
            return (body, rows, total)
        }
    }

    /// ``readPage(caller:claims:page:columns:)`` for a statement read once.
    func readPage(caller: Caller, claims: TokenClaims?, select: SQL, columns: [(name: String, column: ColumnSchema)]) async throws -> PageResult {
        try await readPage(caller: caller, claims: claims, page: PageQuery(select: select, count: nil), columns: columns)
    }

    /// The caller's role and claims as `request.jwt.claims` (role `authenticated` for an editor
    /// too: `auth.role()` reads the token's role, as on Supabase, while the statements run as
    /// `content_editor`).
    static func settings(caller: Caller, claims: TokenClaims?) -> CallerSettings {
        CallerSettings(role: DatabaseRole.acting(as: caller, claims: claims), claims: claimsJSON(caller: caller, claims: claims))
    }

    private static func claimsJSON(caller: Caller, claims: TokenClaims?) -> String {
        // The API keys' claims are the role alone; no encoder needed for most reads.
        guard var effective = claims else { return "{\"role\":\"\(caller.role.rawValue)\"}" }
        effective.role = caller.role.rawValue
        return (try? JSONEncoder().encode(effective)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    }
}
