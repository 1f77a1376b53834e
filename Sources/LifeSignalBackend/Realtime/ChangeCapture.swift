import Foundation

/// A committed row change, as captured by the database itself for Realtime.
///
/// Only the primary key travels to subscribers: a subscriber's copy of an inserted or updated
/// row is read afterwards under that subscriber's own role and claims, so the database's
/// policies decide what each one sees. A deleted row can no longer be read, so its delete also
/// carries the columns its read policies look at (``oldRow``), against which each subscriber's
/// policy is evaluated instead (``ChangeCapture/deletedRowColumns``).
public struct CapturedChange: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case insert = "INSERT"
        case update = "UPDATE"
        case delete = "DELETE"
    }

    public var table: String
    public var kind: Kind
    /// The primary key of the row after the change (`nil` for a delete), in text form.
    public var key: [String: String]?
    /// The primary key before the change (`nil` for an insert).
    public var oldKey: [String: String]?
    /// When the change happened, ISO 8601 in UTC with milliseconds.
    public var commitTimestamp: String
    /// For a delete, the deleted row's key and policy columns as the trigger wrote them: a JSON
    /// object of the stored values (PostgreSQL's `to_jsonb`, SQLite's `json_object`). Never
    /// sent to anyone; `nil` for inserts, updates, and deletes logged before migration 200.
    public var oldRow: String?

    public init(table: String, kind: Kind, key: [String: String]?, oldKey: [String: String]?, commitTimestamp: String, oldRow: String? = nil) {
        self.table = table
        self.kind = kind
        self.key = key
        self.oldKey = oldKey
        self.commitTimestamp = commitTimestamp
        self.oldRow = oldRow
    }
}

/// Row-change capture for Realtime, installed by triggers on the published tables.
///
/// Every write path — `/rest/v1`, the functions, the sweep, `psql` — is seen, because the
/// database reports the change, not the code that made it. On both engines the trigger appends
/// the change to a private log, `lifesignal_realtime_changes`, which each server reads from its
/// own position (``CapturedChanges``), so a change committed while a server was not reading (a
/// database restart) is read when it reads again. On PostgreSQL the trigger also sends a
/// `NOTIFY` on ``postgresChannel`` as a wake-up to every server on that database, which is how
/// several servers share one database without a cluster of their own; the log is pruned by
/// age (``postgresRetention``, migration 160). SQLite's log keeps only the newest
/// ``sqliteRetainedChanges`` rows, so it stays small even when nobody reads it.
public enum ChangeCapture {
    public static let postgresChannel = "lifesignal_realtime"
    public static let sqliteRetainedChanges = 10_000

    /// The tables whose changes Realtime publishes, with their primary-key columns.
    /// Credentials (`push_tokens`, `auth_*`) and files are never published.
    public static let publishedTables: [(table: String, key: [String])] =
        capturedSince104 + [(DocumentService.table, ["path"])]
        + [("contact_role_requests", ["id"])]

    /// The tables migration 104 installed capture on; later tables install their own
    /// (``capture(table:key:)``) in the migration that creates them.
    static let capturedSince104: [(table: String, key: [String])] = [
        ("users", ["id"]), ("check_ins", ["id"]), ("contacts", ["id"]), ("contact_invitations", ["id"]),
        ("alerts", ["id"]), ("alert_responses", ["alert_id", "responder_id"]), ("pings", ["id"]),
        ("notifications", ["id"]), ("locations", ["id"]), ("events", ["id"]), ("routes", ["id"]),
    ]

    static let migration = Migration(
        version: 104, name: "realtime change capture", statements: [],
        postgresOnly: [postgresFunction] + capturedSince104.map { postgresTrigger(table: $0.table, key: $0.key) },
        sqliteOnly: [
            """
            CREATE TABLE lifesignal_realtime_changes (
                id integer PRIMARY KEY AUTOINCREMENT,
                table_name text NOT NULL, kind text NOT NULL, key text, old_key text, committed_at text NOT NULL)
            """
        ]
            + capturedSince104.flatMap { table, key in
                CapturedChange.Kind.allCases.map { sqliteTrigger(table: table, key: key, kind: $0) }
            })

    /// The statements that capture a table created after migration 104, per engine.
    static func capture(table: String, key: [String]) -> (postgres: [String], sqlite: [String]) {
        ([postgresTrigger(table: table, key: key)], CapturedChange.Kind.allCases.map { sqliteTrigger(table: table, key: key, kind: $0) })
    }

    private static func postgresTrigger(table: String, key: [String]) -> String {
        "CREATE TRIGGER lifesignal_realtime AFTER INSERT OR UPDATE OR DELETE ON \(table) "
            + "FOR EACH ROW EXECUTE FUNCTION lifesignal_realtime_notify(\(key.map { "'\($0)'" }.joined(separator: ", ")))"
    }

    /// One function for every table; the trigger's arguments name the key columns.
    private static let postgresFunction = """
        CREATE FUNCTION lifesignal_realtime_notify() RETURNS trigger LANGUAGE plpgsql AS $$
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
            PERFORM pg_notify('\(postgresChannel)', jsonb_build_object(
                'table', TG_TABLE_NAME, 'kind', TG_OP,
                'key', CASE WHEN new_row IS NULL THEN NULL ELSE new_key END,
                'old_key', CASE WHEN old_row IS NULL THEN NULL ELSE old_key END,
                'committed_at', to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text);
            RETURN NULL;
        END $$
        """

    private static func sqliteTrigger(table: String, key: [String], kind: CapturedChange.Kind) -> String {
        func object(_ row: String) -> String {
            "json_object(" + key.map { "'\($0)', \(row).\($0)" }.joined(separator: ", ") + ")"
        }
        let newKey = kind == .delete ? "NULL" : object("NEW")
        let oldKey = kind == .insert ? "NULL" : object("OLD")
        // The content tables' `updated_at` trigger re-updates the row after every update that
        // left `updated_at` alone; only the second, final update is reported.
        let condition = kind == .update && Schema.contentTables.contains(table) ? " WHEN NEW.updated_at IS NOT OLD.updated_at" : ""
        return """
            CREATE TRIGGER lifesignal_realtime_\(table)_\(kind.rawValue.lowercased()) AFTER \(kind.rawValue) ON \(table)\(condition) BEGIN
                INSERT INTO lifesignal_realtime_changes (table_name, kind, key, old_key, committed_at)
                VALUES ('\(table)', '\(kind.rawValue)', \(newKey), \(oldKey), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
                DELETE FROM lifesignal_realtime_changes WHERE id <= last_insert_rowid() - \(sqliteRetainedChanges);
            END
            """
    }

    /// Decodes the JSON a trigger wrote (PostgreSQL's notification payload, or one SQLite row's
    /// key columns). Key values become text, as filters compare them.
    static func decodeKey(_ text: String?) -> [String: String]? {
        guard let text, let data = text.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        var key: [String: String] = [:]
        for (name, value) in object {
            switch value {
            case let text as String: key[name] = text
            case let number as NSNumber: key[name] = number.stringValue
            default: continue
            }
        }
        return key
    }

    static func decodeNotification(_ payload: String) -> CapturedChange? {
        guard let data = payload.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let table = object["table"] as? String, let kind = (object["kind"] as? String).flatMap(CapturedChange.Kind.init(rawValue:)),
            let committedAt = object["committed_at"] as? String
        else { return nil }
        func key(_ name: String) -> [String: String]? {
            guard let value = object[name], !(value is NSNull),
                let data = try? JSONSerialization.data(withJSONObject: value)
            else { return nil }
            return decodeKey(String(decoding: data, as: UTF8.self))
        }
        return CapturedChange(table: table, kind: kind, key: key("key"), oldKey: key("old_key"), commitTimestamp: committedAt)
    }
}

extension CapturedChange.Kind: CaseIterable {}
