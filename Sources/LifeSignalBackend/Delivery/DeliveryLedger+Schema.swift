extension DeliveryLedger {
    /// The delivery ledger and the people's channel choices (issue 19, item 2).
    ///
    /// `deliveries` holds one row per (notification, channel, address): a device token, a phone
    /// number or an email address. Rows are written in the transaction that writes the
    /// notification, so a message is queued if and only if its event committed, and a server
    /// that dies before sending leaves the row for another. `next_attempt_at` is both the retry
    /// time of a queued row and the end of a claim on a row being sent: one partial index
    /// finds both kinds of due work, and a claim left by a dead worker falls due by itself.
    ///
    /// Neither table has a policy: they hold phone numbers, addresses and device tokens, and
    /// are reached only through the functions (the person's own choices; the ledger for the
    /// service role) and the worker.
    static let migration = Migration(
        version: 230, name: "delivery ledger and channel choices",
        statements: [
            """
            CREATE TABLE deliveries (
                id uuid PRIMARY KEY,
                notification_id uuid NOT NULL,
                user_id uuid REFERENCES users(id) ON DELETE CASCADE,
                channel text NOT NULL CHECK (channel IN ('push', 'sms', 'email')),
                address text NOT NULL,
                kind text NOT NULL,
                title text NOT NULL,
                body text NOT NULL,
                data text NOT NULL DEFAULT '{}',
                alert_id uuid,
                status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'failed')),
                attempts integer NOT NULL DEFAULT 0,
                next_attempt_at timestamptz NOT NULL,
                provider_message_id text,
                last_error text,
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                sent_at timestamptz,
                UNIQUE (notification_id, channel, address))
            """,
            "CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status IN ('queued', 'sending')",
            "CREATE INDEX deliveries_provider_message ON deliveries (provider_message_id) WHERE provider_message_id IS NOT NULL",
            "CREATE INDEX deliveries_created ON deliveries (created_at)",
            "CREATE INDEX deliveries_user ON deliveries (user_id)",
            """
            CREATE TABLE delivery_preferences (
                user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                push text NOT NULL CHECK (push IN ('all', 'urgent', 'off')),
                sms text NOT NULL CHECK (sms IN ('all', 'urgent', 'off')),
                email text NOT NULL CHECK (email IN ('all', 'urgent', 'off')),
                updated_at timestamptz NOT NULL)
            """,
        ],
        postgresOnly: [
            "ALTER TABLE deliveries ENABLE ROW LEVEL SECURITY", "GRANT ALL ON deliveries TO service_role",
            "ALTER TABLE delivery_preferences ENABLE ROW LEVEL SECURITY", "GRANT ALL ON delivery_preferences TO service_role",
        ])
}
