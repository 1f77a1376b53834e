/// The database roles of a request, as in Supabase.
public enum DatabaseRole: String, Sendable, Hashable, CaseIterable {
    case anon
    case authenticated
    case serviceRole = "service_role"
    /// A signed-in content editor (`app_metadata.role` is `"editor"` in the access token). A
    /// real PostgreSQL role, member of `authenticated` (it holds that role's grants and
    /// policies too), because only a role can hold a column the others may not read: a row
    /// policy can read the token's claims, a column grant cannot. Tokens keep
    /// `role: authenticated`; the server switches to this role when the claims say editor
    /// (``acting(as:claims:)``), and no token can name it (`AuthService.caller(claims:)`
    /// refuses an unknown role).
    case contentEditor = "content_editor"

    /// The roles whose grants and policies this one holds as well, as PostgreSQL's role
    /// membership (with `INHERIT`) gives them.
    public var inherited: [DatabaseRole] { self == .contentEditor ? [.authenticated] : [] }

    /// The value of `app_metadata.role` that makes a signed-in person a content editor.
    public static let editorMetadataRole = "editor"

    /// The role a request runs as: the caller's, or ``contentEditor`` for a signed-in person
    /// whose verified claims carry `app_metadata.role = "editor"`.
    public static func acting(as caller: Caller, claims: TokenClaims?) -> DatabaseRole {
        guard case .user = caller, claims?.appMetadata?.role == editorMetadataRole else { return caller.role }
        return .contentEditor
    }
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
    /// The columns a role's `SELECT` grant covers, for roles that may not read every column
    /// (PostgreSQL's column privileges, `GRANT SELECT (a, b) ON …`). A role not named here
    /// reads every column its grant reaches. A column added later is readable only once a
    /// migration grants it: the default is deny here too.
    public let readableColumns: [DatabaseRole: [String]]

    public init(table: String, grants: [DatabaseRole: Set<TableCommand>], rules: [Rule], readableColumns: [DatabaseRole: [String]] = [:]) {
        self.table = table
        self.grants = grants
        self.rules = rules
        self.readableColumns = readableColumns
    }

    public func isGranted(_ command: TableCommand, to role: DatabaseRole) -> Bool {
        role == .serviceRole || grants[role]?.contains(command) == true || role.inherited.contains { isGranted(command, to: $0) }
    }

    /// The rules that apply to `command` for `role` (its own and those of the roles it
    /// inherits, as PostgreSQL applies a policy to the members of its roles); empty means no
    /// row qualifies.
    public func rules(for command: TableCommand, role: DatabaseRole) -> [Rule] {
        let roles = [role] + role.inherited
        return rules.filter { rule in rule.command == command && rule.roles.contains { roles.contains($0) } }
    }

    /// The columns `role` may read: `nil` for every column, else the union of its own column
    /// grant and those of the roles it inherits. Empty when it may read none.
    public func readable(by role: DatabaseRole) -> Set<String>? {
        guard role != .serviceRole else { return nil }
        var columns: Set<String> = []
        for member in [role] + role.inherited where grants[member]?.contains(.select) == true {
            guard let granted = readableColumns[member] else { return nil }
            columns.formUnion(granted)
        }
        return columns
    }

    public var postgresStatements: [String] {
        var statements = ["ALTER TABLE \(table) ENABLE ROW LEVEL SECURITY"]
        statements.append("GRANT ALL ON \(table) TO service_role")
        statements += grantStatements(roles: [.anon, .authenticated, .contentEditor])
        return statements + rules.map { $0.postgresStatement(on: table) }
    }

    /// `GRANT`s for `roles`: table-wide, or the readable columns where they are declared.
    public func grantStatements(roles: [DatabaseRole]) -> [String] {
        roles.flatMap { role -> [String] in
            var commands = TableCommand.allCases.filter { grants[role]?.contains($0) == true }
            var statements: [String] = []
            if let columns = readableColumns[role], commands.contains(.select) {
                commands.removeAll { $0 == .select }
                statements.append("GRANT SELECT (\(columns.joined(separator: ", "))) ON \(table) TO \(role.rawValue)")
            }
            if !commands.isEmpty {
                statements.append("GRANT \(commands.map(\.rawValue).joined(separator: ", ")) ON \(table) TO \(role.rawValue)")
            }
            return statements
        }
    }
}
