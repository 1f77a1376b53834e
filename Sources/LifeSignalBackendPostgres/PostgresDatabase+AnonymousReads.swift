import Foundation
import LifeSignalBackend
import PostgresNIO

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
        let logger = self.logger
        let settings = anonymousClaims
        return try await withLease(.anonymous) { connection in
            if settings.claims(of: connection.id) != claims {
                // Forgotten first: if setting fails the connection's claims are unknown.
                settings.set(nil, for: connection.id)
                _ = try await connection.query("SELECT set_config('request.jwt.claims', \(claims), false)", logger: logger)
                settings.set(claims, for: connection.id)
            }
            let row = try await PostgresTransactionConnection(connection: connection, logger: logger).query(statement).first
            return (try row?.string("body") ?? "[]", try row?.int("n") ?? 0, row?.optionalInt("total"))
        }
    }
}

/// A session setting per pooled connection, by connection id. Bounded: a pool replaces
/// connections now and then, and ids are never reused, so old entries are dropped in bulk.
///
/// A lock rather than `Mutex`, which needs macOS 15 and iOS 18.
final class ConnectionSettings: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [PostgresConnection.ID: String] = [:]
    private static let capacity = 1_024

    func claims(of connection: PostgresConnection.ID) -> String? {
        lock.withLock { values[connection] }
    }

    func set(_ claims: String?, for connection: PostgresConnection.ID) {
        lock.withLock {
            if values.count >= Self.capacity, claims != nil { values.removeAll(keepingCapacity: true) }
            values[connection] = claims
        }
    }
}
