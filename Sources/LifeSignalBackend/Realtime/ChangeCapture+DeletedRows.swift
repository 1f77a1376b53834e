import Foundation

/// What the change log keeps of a deleted row, so that Realtime can tell who could read it.
///
/// An inserted or updated row is read again as each subscriber, and the database's policies
/// decide. A deleted row is gone when Realtime delivers its delete, so the capture trigger keeps
/// the columns the table's read policies look at (`user_id`, `owner_id`, `sender_id`, …) next
/// to the key, and the dispatcher evaluates each subscriber's policy against that old row
/// (``CapturedChange/oldRow``). Only those columns are kept: never names, notes, phone numbers
/// or document contents, which the log (kept 5 minutes on PostgreSQL, the newest 10,000
/// changes on SQLite) has no need of. Subscribers still receive only the key.
extension ChangeCapture {
    /// Per published table, the columns a delete keeps besides the key: every column of the
    /// table that one of its `SELECT` policies mentions, and the relation columns a
    /// subscriber's filter commonly names. A policy that reads a column not kept here finds
    /// no such column when a delete is checked, and the delete reaches only the service role
    /// (fail closed); `RealtimeDeleteCaptureTests` checks every policy against this list.
    ///
    /// A table created later passes its columns to ``capture(table:key:deletedRow:)`` and adds
    /// itself here; a policy that starts reading another column needs a migration that
    /// recreates the table's capture (``deletedRowTriggers(table:key:columns:)``).
    public static let deletedRowColumns: [String: [String]] =
        deletedRowColumnsAt200
        .merging(["contact_role_requests": Schema.roleRequestDeletedRowColumns]) { first, _ in first }

    /// Frozen as migration 200 installed them.
    static let deletedRowColumnsAt200: [String: [String]] = [
        "users": [], "check_ins": ["user_id"], "contacts": ["user_id", "contact_id"], "contact_invitations": ["inviter_id"],
        "alerts": ["user_id"], "alert_responses": [], "pings": ["sender_id", "recipient_id"], "notifications": ["user_id"],
        "locations": contentPolicyColumns, "events": contentPolicyColumns, "routes": contentPolicyColumns,
        DocumentService.table: ["owner_id"],
    ]

    /// Who wrote a content row and whether it is published or soft-deleted.
    private static let contentPolicyColumns = ["created_by", "status", "deleted_at"]

    /// The tables migration 200 recaptured, with their keys, as they were then.
    private static let capturedAt200: [(table: String, key: [String])] = capturedSince104 + [(DocumentService.table, ["path"])]

    /// Adds `old_row` to the log and recaptures every published table so that its deletes keep
    /// ``deletedRowColumns``. PostgreSQL's one trigger function takes the key columns, then
    /// `'|'`, then the kept columns as its arguments; SQLite's delete triggers are replaced.
    static let deletedRowsMigration = Migration(
        version: 200, name: "realtime keeps a deleted row's policy columns", statements: [],
        postgresOnly: ["ALTER TABLE lifesignal_realtime_changes ADD COLUMN old_row jsonb", postgresFunctionAt200]
            + capturedAt200.flatMap { table, key in
                [
                    "DROP TRIGGER IF EXISTS lifesignal_realtime ON \(table)",
                    postgresTriggerAt200(table: table, key: key, columns: deletedRowColumnsAt200[table] ?? []),
                ]
            },
        sqliteOnly: ["ALTER TABLE lifesignal_realtime_changes ADD COLUMN old_row text"]
            + capturedAt200.flatMap { table, key in
                [
                    "DROP TRIGGER IF EXISTS lifesignal_realtime_\(table)_delete",
                    sqliteDeleteTriggerAt200(table: table, key: key, columns: deletedRowColumnsAt200[table] ?? []),
                ]
            })

    /// The statements that capture a table created after migration 200, per engine: its
    /// deletes keep `deletedRow` (the columns its read policies mention) besides `key`.
    static func capture(table: String, key: [String], deletedRow: [String]) -> (postgres: [String], sqlite: [String]) {
        let sqlite = capture(table: table, key: key).sqlite.filter { !$0.contains("lifesignal_realtime_\(table)_delete") }
        return (
            [postgresTriggerAt200(table: table, key: key, columns: deletedRow)],
            sqlite + [sqliteDeleteTriggerAt200(table: table, key: key, columns: deletedRow)]
        )
    }

    /// Replaces a table's capture so that its deletes keep `columns` (for a policy that starts
    /// reading a column the capture does not keep yet).
    static func deletedRowTriggers(table: String, key: [String], columns: [String]) -> (postgres: [String], sqlite: [String]) {
        (
            ["DROP TRIGGER IF EXISTS lifesignal_realtime ON \(table)", postgresTriggerAt200(table: table, key: key, columns: columns)],
            ["DROP TRIGGER IF EXISTS lifesignal_realtime_\(table)_delete", sqliteDeleteTriggerAt200(table: table, key: key, columns: columns)]
        )
    }

    private static func postgresTriggerAt200(table: String, key: [String], columns: [String]) -> String {
        let arguments = key + ["|"] + columns.filter { !key.contains($0) }
        return "CREATE TRIGGER lifesignal_realtime AFTER INSERT OR UPDATE OR DELETE ON \(table) "
            + "FOR EACH ROW EXECUTE FUNCTION lifesignal_realtime_notify(\(arguments.map { "'\($0)'" }.joined(separator: ", ")))"
    }

    /// Migration 160's function, which also keeps the key and the columns after `'|'` of a
    /// deleted row in `old_row`. A trigger without `'|'` (none after this migration) keeps
    /// the key alone.
    private static let postgresFunctionAt200 = """
        CREATE OR REPLACE FUNCTION lifesignal_realtime_notify() RETURNS trigger LANGUAGE plpgsql
        SECURITY DEFINER SET search_path = pg_catalog, public AS $$
        DECLARE
            new_row jsonb := CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE to_jsonb(NEW) END;
            old_row jsonb := CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE to_jsonb(OLD) END;
            new_key jsonb := '{}';
            old_key jsonb := '{}';
            kept jsonb := '{}';
            in_key boolean := true;
            col text;
        BEGIN
            FOREACH col IN ARRAY TG_ARGV LOOP
                IF col = '|' THEN
                    in_key := false;
                    CONTINUE;
                END IF;
                IF in_key THEN
                    IF new_row IS NOT NULL THEN new_key := new_key || jsonb_build_object(col, new_row -> col); END IF;
                    IF old_row IS NOT NULL THEN old_key := old_key || jsonb_build_object(col, old_row -> col); END IF;
                END IF;
                IF TG_OP = 'DELETE' THEN kept := kept || jsonb_build_object(col, old_row -> col); END IF;
            END LOOP;
            INSERT INTO public.lifesignal_realtime_changes (table_name, kind, key, old_key, old_row, committed_at)
            VALUES (TG_TABLE_NAME, TG_OP,
                    CASE WHEN new_row IS NULL THEN NULL ELSE new_key END,
                    CASE WHEN old_row IS NULL THEN NULL ELSE old_key END,
                    CASE WHEN TG_OP = 'DELETE' THEN kept ELSE NULL END,
                    to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'));
            -- The same payload twice in one transaction is sent once: one wake-up per commit.
            PERFORM pg_notify('\(postgresChannel)', '');
            RETURN NULL;
        END $$
        """

    private static func sqliteDeleteTriggerAt200(table: String, key: [String], columns: [String]) -> String {
        func object(_ names: [String]) -> String {
            "json_object(" + names.map { "'\($0)', OLD.\($0)" }.joined(separator: ", ") + ")"
        }
        return """
            CREATE TRIGGER lifesignal_realtime_\(table)_delete AFTER DELETE ON \(table) BEGIN
                INSERT INTO lifesignal_realtime_changes (table_name, kind, key, old_key, old_row, committed_at)
                VALUES ('\(table)', 'DELETE', NULL, \(object(key)), \(object(key + columns.filter { !key.contains($0) })),
                        strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
                DELETE FROM lifesignal_realtime_changes WHERE id <= last_insert_rowid() - \(sqliteRetainedChanges);
            END
            """
    }
}
