import Foundation
import LifeSignalDomain

extension DeliveryLedger {
    /// Phone calls and fallback orders join the ledger (issue 34):
    /// - `deliveries.channel` takes `voice`, and each person's choices gain `voice`, off until
    ///   they choose it;
    /// - `deliveries.status` takes `held` (a later step of a fallback order, due at
    ///   `next_attempt_at`) and `cancelled` (not needed: someone answered first);
    /// - `delivery_preferences.fallback` is a responder's order of channels (`push,sms,voice`),
    ///   `NULL` for every channel at once.
    ///
    /// The checks are swapped on PostgreSQL and edited in place on SQLite, as migration 240
    /// edits `notifications.type` (the lists only grow, so every stored row stays valid).
    static let callsMigration = Migration(
        version: 300, name: "phone calls and fallback orders",
        statements: [
            "ALTER TABLE delivery_preferences ADD COLUMN voice text NOT NULL DEFAULT 'off' CHECK (voice IN ('all', 'urgent', 'off'))",
            "ALTER TABLE delivery_preferences ADD COLUMN fallback text",
            "CREATE INDEX deliveries_held ON deliveries (next_attempt_at) WHERE status = 'held'",
        ],
        postgresOnly: [
            "ALTER TABLE deliveries DROP CONSTRAINT deliveries_channel_check",
            "ALTER TABLE deliveries ADD CONSTRAINT deliveries_channel_check CHECK (channel IN ('push', 'sms', 'email', 'voice'))",
            "ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check",
            """
            ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check
                CHECK (status IN ('queued', 'sending', 'sent', 'delivered', 'failed', 'held', 'cancelled'))
            """,
        ],
        sqliteOnly: [
            "PRAGMA writable_schema = ON",
            """
            UPDATE sqlite_master SET sql = replace(replace(sql,
                '(''push'', ''sms'', ''email'')', '(''push'', ''sms'', ''email'', ''voice'')'),
                '''delivered'', ''failed'')', '''delivered'', ''failed'', ''held'', ''cancelled'')')
            WHERE type = 'table' AND name = 'deliveries'
            """,
            "PRAGMA writable_schema = RESET",
            // DDL: bumps the schema cookie so every connection re-reads the edited definition.
            "CREATE TABLE lifesignal_schema_bump (x integer)",
            "DROP TABLE lifesignal_schema_bump",
        ])
}
