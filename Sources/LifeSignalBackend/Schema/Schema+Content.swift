/// The content tables of seed `004_…` (locations, events, routes), as the SSA Admin schema
/// defines them (the admin app's content tables): soft-deleted rows keep their data with `deleted_at` set.
extension Schema {
    static let contentTables = ["locations", "events", "routes"]

    /// Frozen as migration 100 created them (everyone read every row, any signed-in person
    /// wrote their own); migration 210 replaced them with ``contentPolicies``.
    static let contentPoliciesAtMigration100: [AccessPolicy] = contentTables.map { table in
        AccessPolicy(
            table: table,
            grants: [.anon: [.select], .authenticated: [.select, .insert, .update, .delete]],
            rules: [
                .init("\(table)_read_all", .select, to: [.anon, .authenticated], using: "true"),
                .init("\(table)_insert_own", .insert, to: [.authenticated], check: "created_by = auth.uid()"),
                .init("\(table)_update_own", .update, to: [.authenticated], using: "created_by = auth.uid()", check: "created_by = auth.uid()"),
                .init("\(table)_delete_own", .delete, to: [.authenticated], using: "created_by = auth.uid()"),
            ])
    }

    private static func commonColumns(_ specific: String) -> String {
        """
            id uuid PRIMARY KEY DEFAULT {new_uuid},
            name text NOT NULL,
            slug text NOT NULL UNIQUE,
        \(specific)
            status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived')),
            sort_order integer NOT NULL DEFAULT 0,
            created_by uuid REFERENCES auth_users(id) ON DELETE SET NULL,
            created_at timestamptz NOT NULL DEFAULT {now},
            updated_at timestamptz NOT NULL DEFAULT {now},
            deleted_at timestamptz
        """
    }

    static let content = Migration(
        version: 100, name: "content",
        statements: [
            "CREATE TABLE locations (\n"
                + commonColumns(
                    """
                        region text,
                        short_description text,
                        website_url text,
                    """) + ")",
            "CREATE TABLE events (\n"
                + commonColumns(
                    """
                        description text,
                        host_org text,
                        start_date date,
                        end_date date,
                        start_time time,
                        end_time time,
                        location text,
                        recurrence text,
                        website_url text,
                        image_url text,
                        ocr_text text,
                    """) + ")",
            "CREATE TABLE routes (\n"
                + commonColumns(
                    """
                        gpx_url text,
                        duration_minutes integer CHECK (duration_minutes IS NULL OR duration_minutes >= 0),
                        start_point text,
                        end_point text,
                        difficulty text NOT NULL DEFAULT 'easy' CHECK (difficulty IN ('easy', 'moderate', 'challenging')),
                        notes text,
                    """) + ")",
        ]
            + contentTables.flatMap { table in
                ["status", "created_by", "deleted_at"].map { "CREATE INDEX \(table)_\($0) ON \(table) (\($0))" }
                    + ["CREATE INDEX \(table)_order ON \(table) (sort_order, name)"]
            },
        postgresOnly: [
            """
            CREATE OR REPLACE FUNCTION lifesignal_touch_updated_at() RETURNS trigger LANGUAGE plpgsql AS
            $$ BEGIN NEW.updated_at = now(); RETURN NEW; END $$
            """
        ]
            + contentTables.map {
                "CREATE TRIGGER \($0)_updated_at BEFORE UPDATE ON \($0) FOR EACH ROW EXECUTE FUNCTION lifesignal_touch_updated_at()"
            } + contentPoliciesAtMigration100.flatMap(\.postgresStatements),
        sqliteOnly: contentTables.map { table in
            """
            CREATE TRIGGER \(table)_updated_at AFTER UPDATE ON \(table) FOR EACH ROW WHEN NEW.updated_at = OLD.updated_at
            BEGIN UPDATE \(table) SET updated_at = {now} WHERE id = NEW.id; END
            """
        })
}

extension Schema {
    /// The admin app's event type carries `keywords[]`. A real `text[]` on
    /// PostgreSQL; on SQLite, which has no arrays, a JSON array kept honest by a CHECK, which
    /// the server converts to and from PostgreSQL's array forms.
    static let eventKeywords = Migration(
        version: 108, name: "event keywords", statements: [],
        postgresOnly: ["ALTER TABLE events ADD COLUMN keywords text[] NOT NULL DEFAULT '{}'"],
        sqliteOnly: ["ALTER TABLE events ADD COLUMN keywords text[] NOT NULL DEFAULT '[]' CHECK (json_type(keywords) = 'array')"])
}

extension Schema {
    /// Tables whose `updated_at` is stamped on every update. PostgreSQL does it in a BEFORE
    /// trigger (migration 100), which also overrides a value the writer sent.
    public static let stampedTables: Set<String> = Set(contentTables)

    /// SQLite's AFTER triggers cannot change the row an `UPDATE … RETURNING` returns, so the
    /// stamp they made was missing from every returned row. Writers stamp instead: the server
    /// with ``sqliteNow``, the in-process backend with its clock.
    static let sqliteStampInWriters = Migration(
        version: 109, name: "sqlite updated_at stamped by writers", statements: [],
        sqliteOnly: contentTables.map { "DROP TRIGGER IF EXISTS \($0)_updated_at" })

    /// The current instant in ``Timestamp``'s stored form, as an SQLite expression.
    public static var sqliteNow: String { Migration.sqliteNow }
}
