/// Consent for whatever widens what someone sees (issue 18 item 3, docs/security.md
/// "Consent"): QR codes that live only while their owner's screen shows them, and requests to
/// become someone's responder that wait for that person's answer.
extension Schema {
    /// Either side reads a request (the requester to see it pending, the owner to answer it);
    /// nobody writes through `/rest/v1`: the role functions create, answer and cancel them.
    static let roleRequestsPolicy = AccessPolicy(
        table: "contact_role_requests", grants: [.authenticated: [.select]],
        rules: [
            .init(
                "contact_role_requests_select_party", .select, to: [.authenticated],
                using: "requester_id = auth.uid() OR owner_id = auth.uid()")
        ])

    /// What Realtime's change log keeps of a deleted request besides its id: the two sides its
    /// read policy names, so a delete reaches exactly the two people who could read it.
    static let roleRequestDeletedRowColumns = ["requester_id", "owner_id"]

    /// `users.qr_code_expires_at`: a code is valid only before it, and `NULL` (every code
    /// before this migration, every code at sign-up, a code just used) is never valid, so a
    /// code someone read before this migration links nobody.
    ///
    /// `contact_role_requests`: one pending request per ordered pair, from the requester who
    /// asks to become the owner's responder; answered, cancelled or removed with the relation.
    static let consentMigration: Migration = {
        let capture = ChangeCapture.capture(table: "contact_role_requests", key: ["id"], deletedRow: roleRequestDeletedRowColumns)
        return Migration(
            version: 220, name: "consent: short-lived QR codes and role requests",
            statements: [
                "ALTER TABLE users ADD COLUMN qr_code_expires_at timestamptz",
                """
                CREATE TABLE contact_role_requests (
                    id uuid PRIMARY KEY,
                    requester_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    owner_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    created_at timestamptz NOT NULL,
                    UNIQUE (requester_id, owner_id),
                    CHECK (requester_id <> owner_id))
                """,
                "CREATE INDEX contact_role_requests_owner ON contact_role_requests (owner_id)",
            ],
            postgresOnly: roleRequestsPolicy.postgresStatements + capture.postgres,
            sqliteOnly: capture.sqlite)
    }()
}
