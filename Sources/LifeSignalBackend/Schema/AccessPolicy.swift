/// The database roles of a request, as in Supabase.
public enum DatabaseRole: String, Sendable, Hashable, CaseIterable {
    case anon
    case authenticated
    case serviceRole = "service_role"
}

/// What a statement does to a table.
public enum TableCommand: String, Sendable, Hashable, CaseIterable {
    case select = "SELECT"
    case insert = "INSERT"
    case update = "UPDATE"
    case delete = "DELETE"
}

/// Who may touch a table, declared once for both engines.
///
/// On PostgreSQL ``postgresStatements`` turns the declaration into `GRANT`s and row-level
/// security policies that would deploy unchanged to a Supabase project. On SQLite the server
/// enforces the same declaration: it refuses commands the role has no grant for, and ANDs the
/// policies' predicates into the statement, with `auth.uid()` bound to the caller's id.
/// Predicates are therefore written in the SQL both engines share. No grant or no matching
/// policy means no access: the default is deny. `service_role` bypasses policies, as on
/// Supabase.
public struct AccessPolicy: Sendable {
    public struct Rule: Sendable {
        public let name: String
        public let command: TableCommand
        public let roles: [DatabaseRole]
        /// Which existing rows are visible or affected (`USING`).
        public let using: String?
        /// Which new or changed rows are allowed (`WITH CHECK`).
        public let check: String?

        /// `CREATE POLICY …` for this rule.
        public func postgresStatement(on table: String) -> String {
            var statement = "CREATE POLICY \(name) ON \(table) FOR \(command.rawValue) TO \(roles.map(\.rawValue).joined(separator: ", "))"
            if let using { statement += " USING (\(using))" }
            if let check { statement += " WITH CHECK (\(check))" }
            return statement
        }

        public init(_ name: String, _ command: TableCommand, to roles: [DatabaseRole], using: String? = nil, check: String? = nil) {
            self.name = name
            self.command = command
            self.roles = roles
            self.using = using
            self.check = check
        }
    }

    public let table: String
    public let grants: [DatabaseRole: Set<TableCommand>]
    public let rules: [Rule]

    public init(table: String, grants: [DatabaseRole: Set<TableCommand>], rules: [Rule]) {
        self.table = table
        self.grants = grants
        self.rules = rules
    }

    public func isGranted(_ command: TableCommand, to role: DatabaseRole) -> Bool {
        role == .serviceRole || grants[role]?.contains(command) == true
    }

    /// The rules that apply to `command` for `role`; empty means no row qualifies.
    public func rules(for command: TableCommand, role: DatabaseRole) -> [Rule] {
        rules.filter { $0.command == command && $0.roles.contains(role) }
    }

    public var postgresStatements: [String] {
        var statements = ["ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY"]
        statements.append("GRANT ALL ON \(table) TO service_role")
        for role in [DatabaseRole.anon, .authenticated] {
            let commands = TableCommand.allCases.filter { grants[role]?.contains($0) == true }
            if !commands.isEmpty {
                statements.append("GRANT \(commands.map(\.rawValue).joined(separator: ", ")) ON \(table) TO \(role.rawValue)")
            }
        }
        return statements + rules.map { $0.postgresStatement(on: table) }
    }
}
