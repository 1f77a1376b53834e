import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// Turns a ``ReadPlan`` into SQL for one table and engine.
///
/// Every name is checked against the schema cache before it reaches SQL (unknown names are
/// PostgreSQL's `42703`), and every value is a bound parameter. On SQLite the table's
/// ``AccessPolicy`` is applied here, as PostgreSQL's row-level security would apply it.
struct RESTSQLBuilder {
    let table: TableSchema
    let dialect: SQLDialect
    let caller: Caller
    /// The role the statements run as: the caller's, or `content_editor` for an editor
    /// (``DatabaseRole/acting(as:claims:)``). Grants, policies and readable columns are its.
    let role: DatabaseRole

    init(table: TableSchema, dialect: SQLDialect, caller: Caller, claims: TokenClaims?) {
        self.table = table
        self.dialect = dialect
        self.caller = caller
        self.role = DatabaseRole.acting(as: caller, claims: claims)
    }

    /// Columns of the result, in output order, with the name each has in the JSON.
    func outputColumns(_ plan: ReadPlan) throws(RESTError) -> [(name: String, column: ColumnSchema)] {
        var result: [(String, ColumnSchema)] = []
        for item in plan.select {
            switch item {
            case .all: result += visibleColumns.map { ($0.name, $0) }
            case .column(let name, let alias):
                result.append((alias ?? name, try readableColumn(name)))
            }
        }
        return result
    }

    /// `SELECT <columns> FROM <table> WHERE <policy AND filters> ORDER BY … LIMIT … OFFSET …`
    func select(_ plan: ReadPlan, columns: [(name: String, column: ColumnSchema)]) throws(RESTError) -> SQL {
        let list = columns.map { "\(quote($0.column.name)) AS \(quote($0.name))" }.joined(separator: ", ")
        var sql = SQL.raw("SELECT \(list) FROM \(quote(table.name))")
        sql.append(try whereClause(plan.filters, command: .select))
        if !plan.order.isEmpty {
            let terms = try plan.order.map { (term) throws(RESTError) -> String in
                let column = try readableColumn(term.column)
                let direction = term.ascending ? "ASC" : "DESC"
                // A NOT NULL column sorts the same either way, and without the clause SQLite
                // can walk an index instead of sorting.
                guard column.isNullable else { return "\(quote(term.column)) \(direction)" }
                // PostgreSQL's defaults, spelled out because SQLite's differ.
                let nullsFirst = term.nullsFirst ?? !term.ascending
                return "\(quote(term.column)) \(direction) NULLS \(nullsFirst ? "FIRST" : "LAST")"
            }
            sql.append(SQL.raw(" ORDER BY " + terms.joined(separator: ", ")))
        }
        if let limit = plan.limit { sql.append(pageBound("LIMIT", limit)) } else if plan.offset > 0, dialect == .sqlite { sql.append(SQL.raw(" LIMIT -1")) }
        if plan.offset > 0 { sql.append(pageBound("OFFSET", plan.offset)) }
        return sql
    }

    /// ` LIMIT n` or ` OFFSET n`, the number written into the statement as PostgREST writes
    /// it. Bound, it made both engines plan the kept page statement again on every execution:
    /// PostgreSQL because a generic plan for an unknown `LIMIT` looks far costlier than the
    /// custom one (a third of its time on a read), SQLite because it plans with a bound
    /// `LIMIT`'s value and so re-prepares the statement whenever that parameter is bound
    /// (`docs/performance.md`). It is an `Int`, so nothing but digits (and a sign) reaches the SQL.
    private func pageBound(_ keyword: String, _ value: Int) -> SQL {
        SQL.raw(" \(keyword) \(value)")
    }

    /// `SELECT count(*) …` with the same filters and policy.
    func count(_ plan: ReadPlan) throws(RESTError) -> SQL {
        SQL.raw("SELECT count(*) AS total FROM \(quote(table.name))") + (try whereClause(plan.filters, command: .select))
    }

    func whereClause(_ filters: [FilterNode], command: TableCommand) throws(RESTError) -> SQL {
        var conditions = try filters.map { (node) throws(RESTError) -> SQL in try condition(node) }
        if dialect == .sqlite, let policy = try policyCondition(command) { conditions.insert(policy, at: 0) }
        guard !conditions.isEmpty else { return SQL.raw("") }
        return SQL.raw(" WHERE ") + SQL.join(conditions, separator: " AND ")
    }

    /// The declared policy as SQL, or `nil` for the service role, which bypasses policies.
    private func policyCondition(_ command: TableCommand) throws(RESTError) -> SQL? {
        guard role != .serviceRole else { return nil }
        try requireGrant(command)
        guard let policy = Schema.policy(for: table.name) else { return SQL.raw("(1 = 0)") }
        return policyPredicate(policy.rules(for: command, role: role).compactMap(\.using))
    }

    /// Policy expressions ORed together (PostgreSQL's permissive policies), with `auth.uid()`
    /// bound to the caller's id; no expression at all admits no row.
    func policyPredicate(_ expressions: [String]) -> SQL {
        guard !expressions.isEmpty else { return SQL.raw("(1 = 0)") }
        let uid: SQLValue = if case .user(let id) = caller { .text(id.description) } else { .null }
        let parts = expressions.map { expression in
            var fragment = SQL.raw("(")
            for (index, piece) in expression.components(separatedBy: "auth.uid()").enumerated() {
                if index > 0 { fragment.append("\(uid)") }
                fragment.append(SQL.raw(piece))
            }
            return fragment + SQL.raw(")")
        }
        return SQL.raw("(") + SQL.join(parts, separator: " OR ") + SQL.raw(")")
    }

    private func condition(_ node: FilterNode) throws(RESTError) -> SQL {
        switch node {
        case .logic(let isAnd, let negated, let children):
            let parts = try children.map { (child) throws(RESTError) -> SQL in try condition(child) }
            let joined = SQL.raw("(") + SQL.join(parts, separator: isAnd ? " AND " : " OR ") + SQL.raw(")")
            return negated ? SQL.raw("NOT ") + joined : joined
        case .predicate(let name, let negated, let op, let value):
            let column = try readableColumn(name)
            let predicate = try self.predicate(column, op, value)
            return negated ? SQL.raw("NOT (") + predicate + SQL.raw(")") : predicate
        }
    }

    private func predicate(_ column: ColumnSchema, _ op: FilterOperator, _ value: FilterValue) throws(RESTError) -> SQL {
        let name = quote(column.name)
        switch (op, value) {
        case (.is, .scalar(let keyword)):
            switch keyword {
            case "null", "unknown": return SQL.raw("\(name) IS NULL")
            case "not_null": return SQL.raw("\(name) IS NOT NULL")
            case "true": return SQL.raw("\(name) IS TRUE")
            default: return SQL.raw("\(name) IS FALSE")
            }
        case (.in, .list(let items)):
            guard !items.isEmpty else { return SQL.raw("(1 = 0)") }
            let values = items.map { bind($0, for: column) }
            return SQL.raw("\(name) IN (") + SQL.join(values.map { "\($0)" }, separator: ", ") + SQL.raw(")")
        case (.like, .scalar(let pattern)), (.ilike, .scalar(let pattern)):
            let like = String(String.UnicodeScalarView(pattern.unicodeScalars.map { $0 == "*" ? "%" : $0 }))
            switch dialect {
            case .postgres: return SQL.raw("\(name) \(op == .like ? "LIKE" : "ILIKE") ") + "\(SQLValue.literal(like))"
            case .sqlite where op == .ilike: return SQL.raw("\(name) LIKE ") + "\(SQLValue.text(like)) ESCAPE '\\'"
            case .sqlite: return SQL.raw("\(name) GLOB ") + "\(SQLValue.text(Self.glob(fromLike: like)))"
            }
        case (.cs, .scalar(let text)), (.cd, .scalar(let text)), (.ov, .scalar(let text)):
            return try arrayPredicate(column, op, text)
        case (_, .scalar(let text)):
            let symbol =
                switch op {
                case .eq: "="
                case .neq: "<>"
                case .gt: ">"
                case .gte: ">="
                case .lt: "<"
                default: "<="
                }
            return SQL.raw("\(name) \(symbol) ") + "\(bind(text, for: column))"
        default:
            throw RESTError.parse("filter", column.name, "operator \(op.rawValue) does not take this value")
        }
    }

    /// A filter value as the engine should compare it. PostgreSQL types the literal itself;
    /// SQLite compares what is stored, so the text is converted the way the column stores it.
    func bind(_ text: String, for column: ColumnSchema) -> SQLValue {
        guard dialect == .sqlite else { return .literal(text) }
        switch column.type {
        case "integer", "bigint": return Int64(text).map(SQLValue.int) ?? .text(text)
        case "double precision", "numeric": return Double(text).map(SQLValue.double) ?? .text(text)
        case "boolean":
            switch text.lowercased() {
            case "true", "t", "1", "yes", "on": return .int(1)
            case "false", "f", "0", "no", "off": return .int(0)
            default: return .text(text)
            }
        case "uuid": return .text(text.lowercased())
        case "timestamptz", "timestamp": return Timestamp.parse(text).map(SQLValue.timestamp) ?? .text(text)
        default: return .text(text)
        }
    }

    func quote(_ identifier: String) -> String {
        // A byte scan: `String.contains(_: String)` goes through Foundation's search on Linux.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        // Doubled by byte: split by `Character`, a quote followed by a combining mark is one
        // grapheme that is not `"`, and its quote byte would reach SQL undoubled.
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in identifier.utf8 {
            bytes.append(byte)
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// LIKE's `%` and `_` as GLOB's `*` and `?`, with GLOB's own specials made literal.
    static func glob(fromLike pattern: String) -> String {
        // By scalar: a `[` followed by a combining mark is still GLOB's `[` to SQLite.
        var result = String.UnicodeScalarView()
        for scalar in pattern.unicodeScalars {
            switch scalar {
            case "%": result.append("*")
            case "_": result.append("?")
            case "*": result.append(contentsOf: "[*]".unicodeScalars)
            case "?": result.append(contentsOf: "[?]".unicodeScalars)
            case "[": result.append(contentsOf: "[[]".unicodeScalars)
            default: result.append(scalar)
            }
        }
        return String(result)
    }
}
