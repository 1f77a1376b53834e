/// LifeSignal's tables, their migrations and their access policies.
public enum Schema {
    public static let migrations: [Migration] =
        [foundation, content, storage] + domainMigrations + [
            contactsReadUsers, userMetadata, ChangeCapture.migration, contentListIndexes, sessionSignInMethod, callerStatementMigration, eventKeywords,
            sqliteStampInWriters, AuthService.phoneChangeMigration, messagingMigration, messagingRetentionMigration, DocumentService.migration,
            PasswordAttempts.throttleMigration, SignInCodes.sendingCapsMigration, sqliteLowSelectivityIndexes, ChangeCapture.changeLogMigration,
            peopleSeeOnlyTheirOwn, ChangeCapture.deletedRowsMigration, Sessions.sessionsByUserMigration, contentPrivacy, consentMigration,
            DeliveryLedger.migration, escalationMigration, ExternalIdentities.identityLinksMigration,
            SendCounter.migration, SignInCodes.sharedCountsMigration, CheckInService.idempotencyMigration, CheckInPINs.migration, DeliveryLedger.callsMigration,
            TestAlerts.migration,
        ]

    /// Every exposed table's policy; tables without one are not reachable through `/rest/v1`.
    public static let policies: [AccessPolicy] =
        [usersPolicy, checkInsPolicy] + contentPolicies + domainPolicies + [DocumentService.policy, roleRequestsPolicy]

    public static func policy(for table: String) -> AccessPolicy? {
        policies.first { $0.table == table }
    }

    /// Tables that hold credentials or bookkeeping and are never exposed, whatever the role.
    public static func isPrivate(_ table: String) -> Bool {
        table.hasPrefix("auth_") || table.hasPrefix("lifesignal_") || table.hasPrefix("sqlite_") || table.hasPrefix("storage_")
    }

    /// A person reads their own row and nobody else's: contacts see each other through
    /// `get-contacts`, which shows each role what docs/security.md's model gives it
    /// (``peopleSeeOnlyTheirOwn`` dropped the contacts' rule).
    static let usersPolicy = AccessPolicy(table: "users", grants: usersGrants, rules: usersRulesAtFoundation)

    static let usersGrants: [DatabaseRole: Set<TableCommand>] = [.authenticated: [.select]]
    /// Frozen as migration 1 created them; later rules arrive in later migrations.
    static let usersRulesAtFoundation: [AccessPolicy.Rule] = [
        .init("users_select_own", .select, to: [.authenticated], using: "id = auth.uid()")
    ]
    /// Migration 102's rule, dropped by migration 170: kept so 102 still reads as it ran.
    static let usersSelectContacts = AccessPolicy.Rule(
        "users_select_contacts", .select, to: [.authenticated],
        using: "EXISTS (SELECT 1 FROM contacts c WHERE c.user_id = auth.uid() AND c.contact_id = users.id)")

    static let checkInsPolicy = AccessPolicy(
        table: "check_ins",
        grants: [.authenticated: [.select]],
        rules: checkInsRulesAtFoundation + [checkInsSelectDependents])

    /// Frozen as migration 1 created them; migration 170 adds the responders' rule.
    static let checkInsRulesAtFoundation: [AccessPolicy.Rule] = [
        .init("check_ins_select_own", .select, to: [.authenticated], using: "user_id = auth.uid()")
    ]

    /// Roles and the `auth` helpers Supabase provides; created here so the same policies run on
    /// a plain PostgreSQL.
    static let supabaseCompatibility: [String] = [
        """
        DO $$ BEGIN CREATE ROLE anon NOLOGIN NOINHERIT;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
        """,
        """
        DO $$ BEGIN CREATE ROLE authenticated NOLOGIN NOINHERIT;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
        """,
        """
        DO $$ BEGIN CREATE ROLE service_role NOLOGIN NOINHERIT BYPASSRLS;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
        """,
        "CREATE SCHEMA IF NOT EXISTS auth",
        """
        CREATE OR REPLACE FUNCTION auth.uid() RETURNS uuid LANGUAGE sql STABLE AS
        $$ SELECT nullif(current_setting('request.jwt.claims', true)::json->>'sub', '')::uuid $$
        """,
        """
        CREATE OR REPLACE FUNCTION auth.role() RETURNS text LANGUAGE sql STABLE AS
        $$ SELECT current_setting('request.jwt.claims', true)::json->>'role' $$
        """,
        """
        CREATE OR REPLACE FUNCTION auth.jwt() RETURNS jsonb LANGUAGE sql STABLE AS
        $$ SELECT coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb $$
        """,
        "GRANT USAGE ON SCHEMA public TO anon, authenticated, service_role",
        "GRANT USAGE ON SCHEMA auth TO anon, authenticated, service_role",
        // Lets a non-superuser owner switch into the request roles, as PostgREST's
        // `authenticator` does.
        "GRANT anon, authenticated, service_role TO CURRENT_USER",
    ]

    /// Contacts read each other's `users` row (after the contacts table exists).
    static let contactsReadUsers = Migration(
        version: 102, name: "contacts_read_users", statements: [],
        postgresOnly: [usersSelectContacts.postgresStatement(on: "users")])

    static let foundation = Migration(
        version: 1, name: "foundation",
        statements: [
            """
            CREATE TABLE auth_users (
                id uuid PRIMARY KEY,
                phone text UNIQUE,
                email text UNIQUE,
                encrypted_password text,
                phone_confirmed_at timestamptz,
                email_confirmed_at timestamptz,
                last_sign_in_at timestamptz,
                created_at timestamptz NOT NULL DEFAULT {now},
                updated_at timestamptz NOT NULL DEFAULT {now})
            """,
            """
            CREATE TABLE auth_one_time_codes (
                phone text PRIMARY KEY,
                code_hash text NOT NULL,
                attempts integer NOT NULL DEFAULT 0,
                expires_at timestamptz NOT NULL,
                created_at timestamptz NOT NULL)
            """,
            """
            CREATE TABLE auth_sessions (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES auth_users(id) ON DELETE CASCADE,
                created_at timestamptz NOT NULL,
                refreshed_at timestamptz)
            """,
            """
            CREATE TABLE auth_refresh_tokens (
                token_hash text PRIMARY KEY,
                session_id uuid NOT NULL REFERENCES auth_sessions(id) ON DELETE CASCADE,
                revoked boolean NOT NULL DEFAULT false,
                created_at timestamptz NOT NULL)
            """,
            "CREATE INDEX auth_refresh_tokens_session ON auth_refresh_tokens (session_id)",
            """
            CREATE TABLE users (
                id uuid PRIMARY KEY REFERENCES auth_users(id) ON DELETE CASCADE,
                phone text NOT NULL,
                first_name text NOT NULL DEFAULT '',
                last_name text NOT NULL DEFAULT '',
                emergency_note text NOT NULL DEFAULT '',
                avatar_url text,
                check_in_interval_seconds integer NOT NULL DEFAULT 86400
                    CHECK (check_in_interval_seconds BETWEEN 3600 AND 604800),
                reminder_lead_seconds integer DEFAULT 1800
                    CHECK (reminder_lead_seconds IS NULL OR reminder_lead_seconds IN (1800, 7200)),
                last_check_in_at timestamptz,
                check_in_deadline timestamptz,
                qr_code_id uuid NOT NULL UNIQUE,
                notifications_enabled boolean NOT NULL DEFAULT true,
                created_at timestamptz NOT NULL DEFAULT {now},
                updated_at timestamptz NOT NULL DEFAULT {now})
            """,
            "CREATE INDEX users_check_in_deadline ON users (check_in_deadline)",
            """
            CREATE TABLE check_ins (
                id uuid PRIMARY KEY DEFAULT {new_uuid},
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                checked_in_at timestamptz NOT NULL,
                source text NOT NULL DEFAULT 'manual'
                    CHECK (source IN ('manual', 'automatic', 'responder_initiated')))
            """,
            "CREATE INDEX check_ins_user_time ON check_ins (user_id, checked_in_at)",
        ],
        postgresOnly: supabaseCompatibility
            + ["auth_users", "auth_one_time_codes", "auth_sessions", "auth_refresh_tokens"]
            .map { "ALTER TABLE \($0) ENABLE ROW LEVEL SECURITY" }
            + AccessPolicy(table: "users", grants: usersGrants, rules: usersRulesAtFoundation).postgresStatements
            + AccessPolicy(table: "check_ins", grants: checkInsPolicy.grants, rules: checkInsRulesAtFoundation).postgresStatements)
}
