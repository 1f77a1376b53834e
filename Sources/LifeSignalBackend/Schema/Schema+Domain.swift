extension Schema {
    /// Migrations after the foundation: contacts, alerts, pings, notifications, the sweep.
    static let domainMigrations: [Migration] = [contactsMigration, alertsMigration, pingsMigration, notificationsMigration, sweepMigration]

    /// Policies of the tables those migrations add. Every one grants reads only: rows change
    /// through the functions, which check roles and keep both halves of a relation together.
    static let domainPolicies: [AccessPolicy] = [
        contactsPolicy, invitationsPolicy, alertsPolicy, alertResponsesPolicy, pingsPolicy, notificationsPolicy,
    ]

    /// `true` when the caller has the row's `user_id` as a dependent, i.e. is their responder.
    /// Written out in full (not relying on the contacts policy) because on SQLite the server
    /// applies a policy to the top-level statement only.
    static func isResponderOf(_ column: String) -> String {
        "EXISTS (SELECT 1 FROM contacts c WHERE c.user_id = auth.uid() AND c.contact_id = \(column) AND c.is_dependent = true)"
    }

    static let contactsPolicy = AccessPolicy(
        table: "contacts", grants: [.authenticated: [.select]],
        rules: [.init("contacts_select_own", .select, to: [.authenticated], using: "user_id = auth.uid()")])

    static let invitationsPolicy = AccessPolicy(
        table: "contact_invitations", grants: [.authenticated: [.select]],
        rules: [.init("contact_invitations_select_sent", .select, to: [.authenticated], using: "inviter_id = auth.uid()")])

    static let alertsPolicy = AccessPolicy(
        table: "alerts", grants: [.authenticated: [.select]],
        rules: [
            .init("alerts_select_own", .select, to: [.authenticated], using: "user_id = auth.uid()"),
            .init("alerts_select_dependents", .select, to: [.authenticated], using: isResponderOf("alerts.user_id")),
        ])

    static let alertResponsesPolicy = AccessPolicy(
        table: "alert_responses", grants: [.authenticated: [.select]],
        rules: [
            .init("alert_responses_select_own", .select, to: [.authenticated], using: "responder_id = auth.uid()"),
            .init(
                "alert_responses_select_alert", .select, to: [.authenticated],
                using: """
                    EXISTS (SELECT 1 FROM alerts a WHERE a.id = alert_responses.alert_id AND (a.user_id = auth.uid() OR \
                    \(isResponderOf("a.user_id"))))
                    """),
        ])

    static let pingsPolicy = AccessPolicy(
        table: "pings", grants: [.authenticated: [.select]],
        rules: [.init("pings_select_party", .select, to: [.authenticated], using: "sender_id = auth.uid() OR recipient_id = auth.uid()")])

    static let notificationsPolicy = AccessPolicy(
        table: "notifications", grants: [.authenticated: [.select]],
        rules: [.init("notifications_select_own", .select, to: [.authenticated], using: "user_id = auth.uid()")])

    /// A relation is two rows, one per side, with mirrored roles (see `ContactRoles`).
    /// Invitations by phone wait in `contact_invitations` until the invitee answers.
    static let contactsMigration = Migration(
        version: 2, name: "contacts",
        statements: [
            """
            CREATE TABLE contacts (
                id uuid PRIMARY KEY DEFAULT {new_uuid},
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                contact_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                is_responder boolean NOT NULL DEFAULT false,
                is_dependent boolean NOT NULL DEFAULT false,
                notify_on_expiry boolean NOT NULL DEFAULT true,
                added_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL,
                UNIQUE (user_id, contact_id),
                CHECK (user_id <> contact_id),
                CHECK (is_responder OR is_dependent))
            """,
            "CREATE INDEX contacts_contact ON contacts (contact_id)",
            """
            CREATE TABLE contact_invitations (
                id uuid PRIMARY KEY,
                inviter_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                invitee_phone text NOT NULL,
                is_responder boolean NOT NULL,
                is_dependent boolean NOT NULL,
                status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined')),
                created_at timestamptz NOT NULL,
                responded_at timestamptz,
                CHECK (is_responder OR is_dependent))
            """,
            "CREATE UNIQUE INDEX contact_invitations_one_pending ON contact_invitations (inviter_id, invitee_phone) WHERE status = 'pending'",
            "CREATE INDEX contact_invitations_invitee ON contact_invitations (invitee_phone, status)",
            "CREATE INDEX contact_invitations_inviter ON contact_invitations (inviter_id)",
        ],
        postgresOnly: contactsPolicy.postgresStatements + invitationsPolicy.postgresStatements)

    /// At most one active alert per person, enforced by a partial unique index so two racing
    /// triggers cannot both succeed.
    static let alertsMigration = Migration(
        version: 3, name: "alerts",
        statements: [
            """
            CREATE TABLE alerts (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                status text NOT NULL CHECK (status IN ('active', 'resolved')),
                activated_at timestamptz NOT NULL,
                resolved_at timestamptz,
                resolved_by uuid REFERENCES users(id) ON DELETE SET NULL,
                CHECK (status = 'active' OR resolved_at IS NOT NULL))
            """,
            "CREATE UNIQUE INDEX alerts_one_active ON alerts (user_id) WHERE status = 'active'",
            "CREATE INDEX alerts_user_time ON alerts (user_id, activated_at)",
            "CREATE INDEX alerts_resolved_by ON alerts (resolved_by)",
            """
            CREATE TABLE alert_responses (
                alert_id uuid NOT NULL REFERENCES alerts(id) ON DELETE CASCADE,
                responder_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                responded_at timestamptz NOT NULL,
                PRIMARY KEY (alert_id, responder_id))
            """,
            "CREATE INDEX alert_responses_responder ON alert_responses (responder_id)",
        ],
        postgresOnly: alertsPolicy.postgresStatements + alertResponsesPolicy.postgresStatements)

    /// One pending ping per responder and dependent; several responders may each have one.
    static let pingsMigration = Migration(
        version: 4, name: "pings",
        statements: [
            """
            CREATE TABLE pings (
                id uuid PRIMARY KEY,
                sender_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                recipient_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'responded', 'cancelled')),
                sent_at timestamptz NOT NULL,
                resolved_at timestamptz,
                CHECK (sender_id <> recipient_id),
                CHECK (status = 'pending' OR resolved_at IS NOT NULL))
            """,
            "CREATE UNIQUE INDEX pings_one_pending ON pings (sender_id, recipient_id) WHERE status = 'pending'",
            "CREATE INDEX pings_recipient ON pings (recipient_id, status)",
            "CREATE INDEX pings_resolved ON pings (resolved_at)",
        ],
        postgresOnly: pingsPolicy.postgresStatements)

    /// Notification history and device tokens. Tokens are credentials for a person's phone:
    /// no role but the service may read them.
    static let notificationsMigration = Migration(
        version: 5, name: "notifications",
        statements: [
            """
            CREATE TABLE notifications (
                id uuid PRIMARY KEY DEFAULT {new_uuid},
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                type text NOT NULL CHECK (type IN ('alert_activated_sent', 'alert_activated_received',
                    'alert_cancelled_sent', 'alert_cancelled_received', 'non_responsive_self', 'non_responsive_dependent',
                    'contact_added', 'contact_removed', 'contact_role_changed', 'ping_sent', 'ping_received',
                    'ping_cancelled', 'ping_responded', 'ping_clear_all', 'system', 'system_success', 'system_error',
                    'check_in_reminder', 'check_in_resumed')),
                title text NOT NULL,
                body text NOT NULL,
                contact_id uuid REFERENCES users(id) ON DELETE SET NULL,
                is_read boolean NOT NULL DEFAULT false,
                created_at timestamptz NOT NULL,
                read_at timestamptz)
            """,
            "CREATE INDEX notifications_user_time ON notifications (user_id, created_at)",
            "CREATE INDEX notifications_created ON notifications (created_at)",
            "CREATE INDEX notifications_contact ON notifications (contact_id)",
            """
            CREATE TABLE push_tokens (
                token text PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                platform text NOT NULL DEFAULT 'fcm' CHECK (platform IN ('fcm', 'apns', 'web')),
                created_at timestamptz NOT NULL,
                updated_at timestamptz NOT NULL)
            """,
            "CREATE INDEX push_tokens_user ON push_tokens (user_id)",
        ],
        postgresOnly: notificationsPolicy.postgresStatements + [
            "ALTER TABLE push_tokens ENABLE ROW LEVEL SECURITY", "GRANT ALL ON push_tokens TO service_role",
        ])

    /// Deadline markers that make the sweep's reminders and escalations exactly-once: a marker
    /// equal to the current deadline means "done for this deadline"; a new check-in moves the
    /// deadline and so re-arms both. The partial indexes hold only rows with work left, so a
    /// sweep reads due rows without touching the people it has already handled.
    static let sweepMigration = Migration(
        version: 6, name: "check_in_sweep",
        statements: [
            "ALTER TABLE users ADD COLUMN reminder_sent_for timestamptz",
            "ALTER TABLE users ADD COLUMN escalated_for timestamptz",
            """
            CREATE INDEX users_escalation_due ON users (check_in_deadline)
            WHERE escalated_for IS NULL OR escalated_for <> check_in_deadline
            """,
            """
            CREATE INDEX users_reminder_due ON users (check_in_deadline)
            WHERE reminder_lead_seconds IS NOT NULL AND (reminder_sent_for IS NULL OR reminder_sent_for <> check_in_deadline)
            """,
            "CREATE INDEX users_check_in_resumed ON users (id) WHERE escalated_for IS NOT NULL AND escalated_for <> check_in_deadline",
        ])
}
