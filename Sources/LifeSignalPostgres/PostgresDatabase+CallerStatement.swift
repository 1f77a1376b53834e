import LifeSignalBackend
import PostgresNIO

extension PostgresDatabase {
    /// Runs one page read as `role` with `claims` published as `request.jwt.claims`, in one
    /// round trip: the statement travels as text to `lifesignal_run_as` (migration 107), which
    /// sets the role, the claims and UTC locally and runs it with `EXECUTE`, so PostgreSQL
    /// plans it under the caller's grants and row-level security exactly as inside
    /// `BEGIN; set_config(…); …; COMMIT`. The statement is its own implicit transaction, so
    /// the settings end with it and one snapshot serves the whole statement.
    ///
    /// The call itself is a prepared statement (``CallerPageStatement``): each pooled
    /// connection parses and plans it once, and later reads send only its parameters.
    ///
    /// Returns `nil` when `statement` holds a value that cannot travel as text
    /// (see ``SQL/inlined()``); run it in ``transaction(_:)`` then.
    ///
    /// - Parameter statement: a query returning one row of `body text, n bigint, total bigint`.
    public func readPageAsCaller(role: String, claims: String, statement: SQL) async throws -> (body: String, rows: Int, total: Int?)? {
        guard let text = statement.inlined() else { return nil }
        let logger = self.logger
        return try await withLease { connection in
            // Read to the end (one row), so the connection goes back to the pool idle.
            var page: (body: String, rows: Int, total: Int?) = ("[]", 0, nil)
            for try await row in try await connection.execute(CallerPageStatement(role: role, claims: claims, statement: text), logger: logger) {
                page = (row.0 ?? "[]", Int(row.1 ?? 0), row.2.map(Int.init))
            }
            return page
        }
    }
}

/// `lifesignal_run_as` called for a page read, prepared once per connection.
struct CallerPageStatement: PostgresPreparedStatement {
    static let sql = "SELECT * FROM lifesignal_run_as($1, $2, $3) AS _caller(body text, n bigint, total bigint)"
    typealias Row = (String?, Int64?, Int64?)

    var role: String
    var claims: String
    var statement: String

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(role)
        bindings.append(claims)
        bindings.append(statement)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}
