extension Schema {
    /// Stored files (avatars) live in the database, so every server on one PostgreSQL sees
    /// the same objects; the table is private and reached only through `/storage/v1`.
    static let storage = Migration(
        version: 101, name: "storage",
        statements: [
            """
            CREATE TABLE storage_objects (
                bucket text NOT NULL,
                name text NOT NULL,
                owner uuid REFERENCES auth_users(id) ON DELETE CASCADE,
                content_type text NOT NULL,
                size integer NOT NULL,
                data bytea NOT NULL,
                created_at timestamptz NOT NULL DEFAULT {now},
                updated_at timestamptz NOT NULL DEFAULT {now},
                PRIMARY KEY (bucket, name))
            """
        ],
        postgresOnly: ["ALTER TABLE storage_objects ENABLE ROW LEVEL SECURITY"])
}
