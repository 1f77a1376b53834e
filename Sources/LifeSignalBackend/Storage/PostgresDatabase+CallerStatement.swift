import PostgresNIO

extension PostgresDatabase {
    /// Runs one read as `role` with `claims` published as `request.jwt.claims`, in one round
    /// trip: the statement travels as text to `lifesignal_run_as` (migration 107), which sets
    /// the role, the claims and UTC locally and runs it with `EXECUTE`, so PostgreSQL plans it
    /// under the caller's grants and row-level security exactly as inside
    /// `BEGIN; set_config(…); …; COMMIT`. The statement is its own implicit transaction, so
    /// the settings end with it and one snapshot serves the whole statement.
    ///
    /// Returns `nil` when `statement` holds a value that cannot travel as text
    /// (see ``SQL/inlined()``); run it in ``transaction(_:)`` then.
    ///
    /// - Parameter columns: the result's column definition list, e.g. `body text, n bigint`.
    public func queryAsCaller(role: String, claims: String, statement: SQL, columns: String) async throws -> [SQLRow]? {
        guard let text = statement.inlined() else { return nil }
        let call: SQL = "SELECT * FROM lifesignal_run_as(\(role), \(claims), \(text)) AS _caller(" + SQL.raw(columns) + SQL.raw(")")
        do {
            return try await client.withConnection { connection in
                try await PostgresTransactionConnection(connection: connection, logger: logger).query(call)
            }
        } catch let error as PSQLError {
            throw PostgresTransactionConnection.map(error)
        }
    }

    /// The function behind ``queryAsCaller(role:claims:statement:columns:)``. Only the
    /// server's own login may call it: it is revoked from PUBLIC, and the roles it switches to
    /// (`anon`, `authenticated`) hold no grant on it.
    static let callerStatementMigration = Migration(
        version: 107, name: "one round trip per caller read", statements: [],
        postgresOnly: [
            """
            CREATE FUNCTION lifesignal_run_as(p_role text, p_claims text, p_statement text) RETURNS SETOF record
            LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM set_config('role', p_role, true), set_config('request.jwt.claims', p_claims, true),
                        set_config('timezone', 'UTC', true);
                RETURN QUERY EXECUTE p_statement;
            END $$
            """,
            "REVOKE ALL ON FUNCTION lifesignal_run_as(text, text, text) FROM PUBLIC",
        ])
}
