extension Schema {
    /// Device messaging: which topics each device token follows, and each token's inbox (every
    /// push the backend sent to it).
    ///
    /// Both tables hold device tokens, which are credentials like `push_tokens` (whoever
    /// holds one could read its inbox), so, like `push_tokens`, they have no policy: they are
    /// reached only through the messaging functions, which check that the token is the
    /// caller's, and Realtime never publishes them (`ChangeCapture.publishedTables`). Rows go
    /// with their token (unregistered, or moved to another person) and with their person.
    ///
    /// `seq` orders the inbox and is what a reader's cursor counts. SQLite's `AUTOINCREMENT`
    /// and PostgreSQL's identity both only grow; on PostgreSQL writers also take
    /// ``DeviceInbox/postgresWriteLock``, so numbers commit in order and a cursor never passes
    /// a message that commits later.
    static let messagingMigration = Migration(
        version: 130, name: "device messaging",
        statements: [
            """
            CREATE TABLE topic_subscriptions (
                token text NOT NULL REFERENCES push_tokens(token) ON DELETE CASCADE,
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                topic text NOT NULL,
                created_at timestamptz NOT NULL,
                PRIMARY KEY (token, topic))
            """,
            "CREATE INDEX topic_subscriptions_topic ON topic_subscriptions (topic)",
        ],
        postgresOnly: [
            deviceMessagesTable(seq: "seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY")
        ] + deviceMessagesIndexes + [
            "ALTER TABLE topic_subscriptions ENABLE ROW LEVEL SECURITY", "GRANT ALL ON topic_subscriptions TO service_role",
            "ALTER TABLE device_messages ENABLE ROW LEVEL SECURITY", "GRANT ALL ON device_messages TO service_role",
        ],
        sqliteOnly: [deviceMessagesTable(seq: "seq integer PRIMARY KEY AUTOINCREMENT")] + deviceMessagesIndexes)

    /// Expired inbox messages (``DeviceInbox/retention``) are found by age on every write.
    static let messagingRetentionMigration = Migration(
        version: 131, name: "device message retention",
        statements: ["CREATE INDEX device_messages_created ON device_messages (created_at)"])

    /// The inbox; only the sequence column is spelled differently by the two engines.
    private static func deviceMessagesTable(seq: String) -> String {
        """
        CREATE TABLE device_messages (
            \(seq),
            id uuid NOT NULL UNIQUE,
            token text NOT NULL REFERENCES push_tokens(token) ON DELETE CASCADE,
            user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            title text NOT NULL,
            body text NOT NULL,
            data text NOT NULL DEFAULT '{}',
            topic text,
            created_at timestamptz NOT NULL)
        """
    }

    private static let deviceMessagesIndexes = [
        "CREATE INDEX device_messages_token ON device_messages (token, seq)",
        "CREATE INDEX device_messages_user ON device_messages (user_id)",
    ]
}
