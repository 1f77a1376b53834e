/// Who sees and changes content (issue 18; docs/security.md, "Content").
///
/// Everyone but an editor — anon and every signed-in person — reads only published rows that
/// are not soft-deleted, and never `created_by` (a user id); only editors read drafts,
/// archived and deleted rows and `created_by`, and only they write. An editor is a person
/// whose `app_metadata.role` is `"editor"`, which only the service role sets.
///
/// On PostgreSQL the editor is a database role, `content_editor`, a member of
/// `authenticated`: the row rule alone could read the token's claims
/// (`auth.jwt() -> 'app_metadata' ->> 'role'`), but the column cannot be hidden by a row
/// policy, and a view or security-barrier function in front of the table would leave the
/// table itself (and Realtime's reads of it) readable. With a role, plain column privileges
/// hide `created_by` from `anon` and `authenticated` and grant it to `content_editor`, and
/// row-level security does the rest. The server switches an editor's statements to that role
/// from the verified claims (``DatabaseRole/acting(as:claims:)``), as PostgREST switches to
/// the token's `role`; a token cannot name `content_editor` itself. On SQLite the server
/// applies the same declaration: the grants, the readable columns and the policies.
extension Schema {
    /// Every column of each content table, as migrations 100 and 108 made them.
    static let contentColumns: [String: [String]] = {
        let common = ["id", "name", "slug", "status", "sort_order", "created_by", "created_at", "updated_at", "deleted_at"]
        return [
            "locations": common + ["region", "short_description", "website_url"],
            "events": common + [
                "description", "host_org", "start_date", "end_date", "start_time", "end_time", "location",
                "recurrence", "website_url", "image_url", "ocr_text", "keywords",
            ],
            "routes": common + ["gpx_url", "duration_minutes", "start_point", "end_point", "difficulty", "notes"],
        ]
    }()

    /// Columns only editors read: who wrote a record is a user id, which the model shows to
    /// nobody else.
    public static let editorOnlyContentColumns: Set<String> = ["created_by"]

    /// The predicate of a row everyone may read.
    static let publishedAndLive = "status = 'published' AND deleted_at IS NULL"

    static let contentPolicies: [AccessPolicy] = contentTables.map { table in
        let everyone = (contentColumns[table] ?? []).filter { !editorOnlyContentColumns.contains($0) }
        return AccessPolicy(
            table: table,
            grants: [.anon: [.select], .authenticated: [.select], .contentEditor: [.select, .insert, .update, .delete]],
            rules: [
                .init("\(table)_read_published", .select, to: [.anon, .authenticated], using: publishedAndLive),
                .init("\(table)_editor_read", .select, to: [.contentEditor], using: "true"),
                // An editor writes in their own name and changes their own records, as
                // `ContentService` (the Local adapter and the content functions) allows: every
                // adapter keeps one rule.
                .init("\(table)_editor_insert", .insert, to: [.contentEditor], check: "created_by = auth.uid()"),
                .init("\(table)_editor_update", .update, to: [.contentEditor], using: "created_by = auth.uid()", check: "created_by = auth.uid()"),
                .init("\(table)_editor_delete", .delete, to: [.contentEditor], using: "created_by = auth.uid()"),
            ],
            readableColumns: [.anon: everyone, .authenticated: everyone])
    }

    static let contentPrivacy = Migration(
        version: 210, name: "content: published rows for everyone, drafts and created_by for editors",
        statements: ["ALTER TABLE auth_users ADD COLUMN app_metadata text NOT NULL DEFAULT '{}'"],
        postgresOnly: editorRoleStatements + contentPrivacyStatements)

    /// The editors' role, a member of `authenticated`, which the server's login may switch to.
    static let editorRoleStatements: [String] = [
        """
        DO $$ BEGIN CREATE ROLE content_editor NOLOGIN INHERIT;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
        """,
        "GRANT authenticated TO content_editor",
        "GRANT content_editor TO CURRENT_USER",
    ]

    /// Migration 100's policies and grants out, ``contentPolicies`` in.
    static var contentPrivacyStatements: [String] {
        var statements: [String] = []
        for old in contentPoliciesAtMigration100 {
            statements += old.rules.map { "DROP POLICY IF EXISTS \($0.name) ON \(old.table)" }
            statements.append("REVOKE ALL ON \(old.table) FROM anon, authenticated")
        }
        for policy in contentPolicies {
            statements += policy.grantStatements(roles: [.anon, .authenticated, .contentEditor])
            statements += policy.rules.map { $0.postgresStatement(on: policy.table) }
        }
        return statements
    }
}
