import LifeSignalDomain

/// One step of the schema, written once for both engines.
///
/// Statements use PostgreSQL's type names (`uuid`, `timestamptz`, `boolean`, `jsonb`), which
/// SQLite accepts as declared types; introspection reads them back so both engines describe
/// their tables the same way. Two tokens stand for what the engines spell differently:
/// `{new_uuid}` (a random UUID) and `{now}` (the current instant in ``Timestamp``'s form on
/// SQLite). Statements only one engine understands (roles, grants, policies) go in
/// ``postgresOnly``.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let statements: [String]
    public let postgresOnly: [String]
    /// Statements only SQLite needs (its spelling of triggers, say).
    public let sqliteOnly: [String]

    public init(version: Int, name: String, statements: [String], postgresOnly: [String] = [], sqliteOnly: [String] = []) {
        self.version = version
        self.name = name
        self.statements = statements
        self.postgresOnly = postgresOnly
        self.sqliteOnly = sqliteOnly
    }

    func sql(for dialect: SQLDialect) -> [String] {
        let own = dialect == .postgres ? postgresOnly : sqliteOnly
        return (statements + own).map { statement in
            switch dialect {
            case .postgres:
                statement
                    .replacingOccurrences(of: "{new_uuid}", with: "gen_random_uuid()")
                    .replacingOccurrences(of: "{now}", with: "now()")
            case .sqlite:
                statement
                    .replacingOccurrences(of: "{new_uuid}", with: Self.sqliteUUID)
                    .replacingOccurrences(of: "{now}", with: Self.sqliteNow)
            }
        }
    }

    private static let sqliteUUID = """
        (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))
        """
    /// `strftime('%f')` gives milliseconds; three zeros make the six digits of ``Timestamp``.
    static let sqliteNow = "(strftime('%Y-%m-%dT%H:%M:%f', 'now') || '000+00:00')"
}

/// Applies the migrations a database has not seen yet, each in its own transaction.
public enum Migrator {
    public static func migrate(_ database: any Database, migrations: [Migration] = Schema.migrations) async throws {
        _ = try await database.transaction { connection in
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS lifesignal_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)
                """)
        }
        for migration in migrations.sorted(by: { $0.version < $1.version }) {
            try await database.transaction { connection in
                if connection.dialect == .postgres {
                    // Several servers may start on one database at once; one migrates, the
                    // others wait here and then find the work done.
                    try await connection.query("SELECT pg_advisory_xact_lock(7251001)")
                }
                let applied = try await connection.first(
                    "SELECT 1 AS applied FROM lifesignal_migrations WHERE version = \(migration.version)")
                guard applied == nil else { return }
                for statement in migration.sql(for: connection.dialect) {
                    try await connection.query(SQL(statement))
                }
                try await connection.query(
                    """
                    INSERT INTO lifesignal_migrations (version, name, applied_at)
                    VALUES (\(migration.version), \(migration.name), \(Timestamp.format(.now)))
                    """)
            }
        }
    }
}
