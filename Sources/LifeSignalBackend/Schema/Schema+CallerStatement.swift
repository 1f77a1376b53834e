extension Schema {
    /// The function behind the PostgreSQL engine's caller reads (`readPageAsCaller` in
    /// `LifeSignalPostgres`). Only the
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
