import Foundation

extension ChangeCapture {
    /// PostgreSQL's change log: the capture trigger appends each change to
    /// `lifesignal_realtime_changes` with the writing transaction's id, and `NOTIFY`s only as a
    /// wake-up. Before, the change itself travelled by `NOTIFY`, and whatever was committed while
    /// the server was not listening (a database restart, a `LISTEN` reconnecting) was lost.
    ///
    /// `SECURITY DEFINER`: the trigger runs under the writer's role (`authenticated` through
    /// `/rest/v1`), which holds no grant on the log; the function writes it as its owner. The
    /// log is private (`lifesignal_` tables are never exposed) and granted to nobody.
    static let changeLogMigration = Migration(
        version: 160, name: "realtime change log", statements: [],
        postgresOnly: [
            """
            CREATE TABLE lifesignal_realtime_changes (
                id bigserial PRIMARY KEY,
                xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
                table_name text NOT NULL, kind text NOT NULL, key jsonb, old_key jsonb, committed_at text NOT NULL)
            """,
            "CREATE INDEX lifesignal_realtime_changes_xid ON lifesignal_realtime_changes (xid)",
            """
            CREATE OR REPLACE FUNCTION lifesignal_realtime_notify() RETURNS trigger LANGUAGE plpgsql
            SECURITY DEFINER SET search_path = pg_catalog, public AS $$
            DECLARE
                new_row jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END;
                old_row jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END;
                new_key jsonb := '{}';
                old_key jsonb := '{}';
                col text;
            BEGIN
                FOREACH col IN ARRAY TG_ARGV LOOP
                    IF new_row IS NOT NULL THEN new_key := new_key || jsonb_build_object(col, new_row -> col); END IF;
                    IF old_row IS NOT NULL THEN old_key := old_key || jsonb_build_object(col, old_row -> col); END IF;
                END LOOP;
                INSERT INTO public.lifesignal_realtime_changes (table_name, kind, key, old_key, committed_at)
                VALUES (TG_TABLE_NAME, TG_OP,
                        CASE WHEN new_row IS NULL THEN NULL ELSE new_key END,
                        CASE WHEN old_row IS NULL THEN NULL ELSE old_key END,
                        to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
                -- The same payload twice in one transaction is sent once: one wake-up per commit.
                PERFORM pg_notify('\(postgresChannel)', '');
                RETURN NULL;
            END $$
            """,
        ])

    /// How long PostgreSQL's log keeps a change after its transaction ended. A server reads
    /// within a second; only one that lags by more than this (it would have lost its
    /// subscribers anyway) could miss a pruned change.
    public static let postgresRetention = Duration.seconds(300)
}
