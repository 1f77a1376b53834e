import Foundation
import LifeSignalDomain

extension DeliveryLedger {
    /// Phone calls join the ledger (issue 34): `deliveries.channel` takes `voice`, and each
    /// person's choices gain `voice`, off until they choose it. The channel check is swapped
    /// on PostgreSQL and edited in place on SQLite, as migration 240 edits `notifications.type`
    /// (the list only grows, so every stored row stays valid).
    static let callsMigration = Migration(
        version: 300, name: "phone calls",
        statements: [
            "ALTER TABLE delivery_preferences ADD COLUMN voice text NOT NULL DEFAULT 'off' CHECK (voice IN ('all', 'urgent', 'off'))"
        ],
        postgresOnly: [
            "ALTER TABLE deliveries DROP CONSTRAINT deliveries_channel_check",
            "ALTER TABLE deliveries ADD CONSTRAINT deliveries_channel_check CHECK (channel IN ('push', 'sms', 'email', 'voice'))",
        ],
        sqliteOnly: [
            "PRAGMA writable_schema = ON",
            """
            UPDATE sqlite_master SET sql = replace(sql, '(''push'', ''sms'', ''email'')', '(''push'', ''sms'', ''email'', ''voice'')')
            WHERE type = 'table' AND name = 'deliveries'
            """,
            "PRAGMA writable_schema = RESET",
            // DDL: bumps the schema cookie so every connection re-reads the edited definition.
            "CREATE TABLE lifesignal_schema_bump (x integer)",
            "DROP TABLE lifesignal_schema_bump",
        ])
}
