import Foundation
import LifeSignalBackend
import PostgresNIO
import Synchronization

extension PostgresDatabase {
    /// Runs one page read for a caller without a user — role `anon`, as every public read of
    /// locations, events and routes is — with `claims` as `request.jwt.claims`.
    ///
    /// It runs on connections that logged in as `anon` in UTC (the anonymous pool of ``PostgresPools``), so the
    /// statement goes as it is, with bound parameters: no `lifesignal_run_as` wrapper, whose
    /// PL/pgSQL call, `EXECUTE` and result copy cost PostgreSQL about 1.7 times the read itself
    /// (pgbench, `docs/performance.md`). Grants and row-level security decide exactly as in
    /// ``readPageAsCaller(role:claims:statement:)``: the role is the same and the claims are
    /// the same text. Claims are kept per connection and set only when a read brings other
    /// ones (an anon key sent as bearer carries its own).
    ///
    /// - Parameter statement: a query returning one row of `body text, n bigint, total bigint`.
    public func readPageAsAnonymous(claims: String, statement: SQL) async throws -> (body: String, rows: Int, total: Int?) {
        try await readPageAsAnonymous(claims: claims, page: PostgresPage(statement))
    }

    /// ``readPageAsAnonymous(claims:statement:)`` with the statement's name worked out already.
    public func readPageAsAnonymous(claims: String, page: PostgresPage) async throws -> (body: String, rows: Int, total: Int?) {
        try await readPage(on: .anonymous, settings: anonymousClaims, claims: claims, page: page)
    }

    /// Runs one page read for a signed-in person (role `authenticated`), as
    /// ``readPageAsAnonymous(claims:statement:)`` does for `anon`: on connections logged in as
    /// `authenticated` in UTC, with the person's claims set on the connection first, every
    /// time (people rarely read twice in a row on one connection, and a claim left from
    /// someone else must never be trusted). That is two round trips where `lifesignal_run_as`
    /// takes one, but PostgreSQL plans the statement with its bound parameters instead of
    /// running PL/pgSQL and `EXECUTE` on its text. Row-level security reads the claims just
    /// set, so it decides exactly as inside the wrapper.
    public func readPageAsAuthenticated(claims: String, statement: SQL) async throws -> (body: String, rows: Int, total: Int?) {
        try await readPageAsAuthenticated(claims: claims, page: PostgresPage(statement))
    }

    /// ``readPageAsAuthenticated(claims:statement:)`` with the statement's name worked out already.
    public func readPageAsAuthenticated(claims: String, page: PostgresPage) async throws -> (body: String, rows: Int, total: Int?) {
        try await readPage(on: .authenticated, settings: nil, claims: claims, page: page)
    }

    /// - Parameter settings: the claims each connection of `pool` has, to set them only on
    ///   change; `nil` sets them for every read.
    private func readPage(on pool: Pool, settings: ConnectionSettings?, claims: String, page: PostgresPage) async throws -> (
        body: String, rows: Int, total: Int?
    ) {
        let logger = self.logger
        return try await withLease(pool) { connection in
            let key = ObjectIdentifier(connection)
            if settings == nil || settings?.claims(of: key) != claims {
                // Forgotten first: if setting fails the connection's claims are unknown.
                settings?.set(nil, for: key)
                _ = try await connection.query("SELECT set_config('request.jwt.claims', \(claims), false)", logger: logger)
                settings?.set(claims, for: key)
            }
            return try await self.runPage(page, on: connection)
        }
    }
}

/// A session setting per pooled connection, by the connection object. Not by
/// `PostgresConnection.ID`: a pool numbers its connections from the start, so the fresh pools
/// made after an outage reuse the old pools' ids, and a fresh connection would have passed
/// for one whose claims were set. Emptied when the pools are replaced; bounded, since a pool
/// replaces connections now and then, so old entries are dropped in bulk.
final class ConnectionSettings: Sendable {
    private let values = Mutex<[ObjectIdentifier: String]>([:])
    private static let capacity = 1_024

    func claims(of connection: ObjectIdentifier) -> String? {
        values.withLock { values in values[connection] }
    }

    func set(_ claims: String?, for connection: ObjectIdentifier) {
        values.withLock { values in
            if values.count >= Self.capacity, claims != nil { values.removeAll(keepingCapacity: true) }
            values[connection] = claims
        }
    }

    func removeAll() {
        values.withLock { values in values.removeAll() }
    }
}
