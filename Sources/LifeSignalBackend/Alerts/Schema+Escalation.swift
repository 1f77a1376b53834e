extension Schema {
    /// Escalation as the anchors do it (issue 19 item 3): one incident table, per-person
    /// settings, tiers, pause.
    ///
    /// - `alerts` holds both kinds of incident: an SOS (`kind = 'sos'`) and a missed check-in the
    ///   sweep escalated (`kind = 'missed_check_in'`, with the missed `deadline`). The partial
    ///   unique index of migration 3 still allows one active incident per person, of any kind.
    ///   `tier` is the highest tier told so far and `next_tier_at` when the next one is due;
    ///   `next_repeat_at` when the current tier is told again while nobody has acknowledged.
    /// - `alert_recipients` is everyone told about an incident, so the all-clear reaches exactly
    ///   them. It holds who was alerted, so no policy exposes it: the functions read it.
    /// - `users` gains the person's escalation settings, the pause and two sweep markers:
    ///   `expired_for` (the deadline whose expiry the person was told of) and `escalate_at`
    ///   (when the grace period of that deadline ends).
    /// - `contacts.tier` is set by the person on their own side of the relation (the row whose
    ///   `contact_id` is the responder).
    /// - `notifications.type` takes the new kinds. PostgreSQL swaps the check; SQLite cannot alter
    ///   a check, so its stored definition is edited in place (the procedure SQLite's ALTER TABLE
    ///   documentation gives for changes that leave every stored row valid: the list only grows)
    ///   and a later statement of this migration is DDL, which bumps the schema cookie so every
    ///   other connection re-reads the definition.
    static let escalationMigration = Migration(
        version: 240, name: "escalation",
        statements: [
            "ALTER TABLE alerts ADD COLUMN kind text NOT NULL DEFAULT 'sos' CHECK (kind IN ('sos', 'missed_check_in'))",
            "ALTER TABLE alerts ADD COLUMN deadline timestamptz",
            "ALTER TABLE alerts ADD COLUMN tier integer NOT NULL DEFAULT 1",
            "ALTER TABLE alerts ADD COLUMN next_tier_at timestamptz",
            "ALTER TABLE alerts ADD COLUMN next_repeat_at timestamptz",
            "ALTER TABLE alerts ADD COLUMN acknowledged_at timestamptz",
            "ALTER TABLE alerts ADD COLUMN acknowledged_by uuid REFERENCES users(id) ON DELETE SET NULL",
            """
            ALTER TABLE alerts ADD COLUMN resolution text
                CHECK (resolution IS NULL OR resolution IN ('checked_in', 'cancelled', 'marked_safe'))
            """,
            "ALTER TABLE alerts ADD COLUMN latitude double precision CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90)",
            "ALTER TABLE alerts ADD COLUMN longitude double precision CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180)",
            """
            ALTER TABLE alerts ADD COLUMN accuracy_meters double precision
                CHECK (accuracy_meters IS NULL OR accuracy_meters BETWEEN 0 AND 100000)
            """,
            "ALTER TABLE alerts ADD COLUMN located_at timestamptz",
            "UPDATE alerts SET resolution = 'cancelled' WHERE status = 'resolved'",
            "CREATE INDEX alerts_next_tier ON alerts (next_tier_at) WHERE status = 'active' AND next_tier_at IS NOT NULL",
            "CREATE INDEX alerts_next_repeat ON alerts (next_repeat_at) WHERE status = 'active' AND next_repeat_at IS NOT NULL",
            "CREATE INDEX alerts_acknowledged_by ON alerts (acknowledged_by)",
            """
            CREATE TABLE alert_recipients (
                alert_id uuid NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
                responder_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                tier integer NOT NULL,
                notified_at timestamptz NOT NULL,
                PRIMARY KEY (alert_id, responder_id))
            """,
            "CREATE INDEX alert_recipients_responder ON alert_recipients (responder_id)",
            // An SOS active during the upgrade told every responder; a missed check-in escalated
            // before it becomes an incident that told the responders who wanted it, so both
            // still end with an all-clear to them.
            """
            INSERT INTO alert_recipients (alert_id, responder_id, tier, notified_at)
            SELECT a.id, c.contact_id, 1, a.activated_at FROM alerts a JOIN contacts c ON c.user_id = a.user_id AND c.is_responder = true
            WHERE a.status = 'active'
            """,
            """
            INSERT INTO alerts (id, user_id, status, activated_at, kind, deadline, tier)
            SELECT {new_uuid}, u.id, 'active', u.escalated_for, 'missed_check_in', u.escalated_for, 1 FROM users u
            WHERE u.escalated_for IS NOT NULL AND u.escalated_for = u.check_in_deadline
              AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.user_id = u.id AND a.status = 'active')
            """,
            """
            INSERT INTO alert_recipients (alert_id, responder_id, tier, notified_at)
            SELECT a.id, r.user_id, 1, a.activated_at FROM alerts a
            JOIN contacts r ON r.contact_id = a.user_id AND r.is_dependent = true AND r.notify_on_expiry = true
            WHERE a.status = 'active' AND a.kind = 'missed_check_in'
            """,
            """
            ALTER TABLE users ADD COLUMN escalation_grace_seconds integer NOT NULL DEFAULT 0
                CHECK (escalation_grace_seconds BETWEEN 0 AND 86400)
            """,
            """
            ALTER TABLE users ADD COLUMN escalation_tier_delay_seconds integer NOT NULL DEFAULT 7200
                CHECK (escalation_tier_delay_seconds BETWEEN 300 AND 86400)
            """,
            """
            ALTER TABLE users ADD COLUMN escalation_repeat_seconds integer
                CHECK (escalation_repeat_seconds IS NULL OR escalation_repeat_seconds BETWEEN 900 AND 86400)
            """,
            "ALTER TABLE users ADD COLUMN paused_until timestamptz",
            "ALTER TABLE users ADD COLUMN expired_for timestamptz",
            "ALTER TABLE users ADD COLUMN escalate_at timestamptz",
            // People escalated before this migration were told at their deadline already.
            "UPDATE users SET expired_for = escalated_for WHERE escalated_for IS NOT NULL",
            """
            CREATE INDEX users_expiry_due ON users (check_in_deadline)
            WHERE expired_for IS NULL OR expired_for <> check_in_deadline
            """,
            "CREATE INDEX users_grace_due ON users (escalate_at) WHERE escalate_at IS NOT NULL",
            // The deadline claim now matches users_expiry_due; nothing reads this one any more.
            "DROP INDEX users_escalation_due",
            "ALTER TABLE contacts ADD COLUMN tier integer NOT NULL DEFAULT 1 CHECK (tier BETWEEN 1 AND 9)",
        ],
        postgresOnly: [
            "ALTER TABLE notifications DROP CONSTRAINT notifications_type_check",
            "ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN (\(notificationTypesAt240)))",
            "ALTER TABLE alert_recipients ENABLE ROW LEVEL SECURITY",
            "GRANT ALL ON alert_recipients TO service_role",
        ],
        sqliteOnly: [
            "PRAGMA writable_schema = ON",
            """
            UPDATE sqlite_master SET sql = replace(sql, '''check_in_reminder'', ''check_in_resumed'')',
                '''check_in_reminder'', ''check_in_resumed'', \(notificationTypesAdded.replacingOccurrences(of: "'", with: "''")))')
            WHERE type = 'table' AND name = 'notifications'
            """,
            "PRAGMA writable_schema = RESET",
            // DDL: bumps the schema cookie after the edit above (see the comment at the top).
            "CREATE TABLE lifesignal_schema_bump (x integer)",
            "DROP TABLE lifesignal_schema_bump",
        ])

    /// `notifications.type`'s values from migration 240 on, frozen here as the migration wrote
    /// them (a later kind needs a later migration).
    static let notificationTypesAt240 = """
        'alert_activated_sent', 'alert_activated_received', 'alert_cancelled_sent', 'alert_cancelled_received', \
        'non_responsive_self', 'non_responsive_dependent', 'contact_added', 'contact_removed', 'contact_role_changed', \
        'ping_sent', 'ping_received', 'ping_cancelled', 'ping_responded', 'ping_clear_all', 'system', 'system_success', \
        'system_error', 'check_in_reminder', 'check_in_resumed', \(notificationTypesAdded)
        """

    /// The kinds migration 240 adds.
    static let notificationTypesAdded = "'alert_acknowledged', 'marked_safe', 'check_ins_paused', 'check_ins_unpaused'"
}
