import Foundation
import LifeSignalBackend
import LifeSignalDomain

/// SQL for `/rest/v1` writes, one statement per row so each row keeps its own column list
/// (PostgREST's `missing=default`) on both engines.
extension RESTSQLBuilder {
    /// A payload value as the engine should store it. PostgreSQL coerces untyped literals and
    /// reports bad input itself; for SQLite the same checks are made here, with PostgreSQL's
    /// SQLSTATEs and words, so both engines refuse the same bodies the same way.
    func writeValue(_ value: JSONValue, for column: ColumnSchema) throws(RESTError) -> SQLValue {
        if column.type.hasSuffix("[]"), value != .null { return try arrayValue(value) }
        let text: String
        switch value {
        case .null: return .null
        case .bool(let flag): text = flag ? "true" : "false"
        case .number(let number): text = number
        case .string(let string): text = string
        case .array, .object: text = value.jsonText
        }
        guard dialect == .sqlite else { return .literal(text) }
        func invalid(_ type: String, _ code: RESTErrorCode = .invalidTextRepresentation) -> RESTError {
            RESTError(status: .badRequest, code: code, message: "invalid input syntax for type \(type): \"\(text)\"")
        }
        switch column.type {
        case "integer", "bigint":
            if case .bool = value { throw invalid(column.type) }
            guard let number = Int64(text) else { throw invalid(column.type) }
            return .int(number)
        case "double precision", "numeric":
            guard let number = Double(text), number.isFinite else { throw invalid(column.type) }
            return .double(number)
        case "boolean":
            switch text.lowercased() {
            case "true", "t", "yes", "on", "1": return .int(1)
            case "false", "f", "no", "off", "0": return .int(0)
            default: throw invalid("boolean")
            }
        case "uuid":
            guard let uuid = UUID(uuidString: text) else { throw invalid("uuid") }
            return .uuid(uuid)
        case "timestamptz", "timestamp":
            if let date = Timestamp.parse(text) ?? Timestamp.parse(text + "T00:00:00Z") { return .timestamp(date) }
            throw invalid("timestamp with time zone", .invalidDatetimeFormat)
        case "date":
            guard Timestamp.parse(text + "T00:00:00Z") != nil, text.count == 10 else { throw invalid("date", .invalidDatetimeFormat) }
            return .text(text)
        case "time":
            let parts = text.split(separator: ":")
            guard (2...3).contains(parts.count), let hours = Int(parts[0]), let minutes = Int(parts[1]), hours < 24, minutes < 60,
                parts.count == 2 || Double(parts[2]).map({ $0 < 60 }) == true
            else { throw invalid("time without time zone", .invalidDatetimeFormat) }
            return .text(text)
        default:
            return .text(text)
        }
    }

    /// An array column's value from a JSON array of scalars (as PostgREST's
    /// `json_populate_record` takes it) or an array literal string; stored as a literal on
    /// PostgreSQL and as a JSON array on SQLite.
    func arrayValue(_ value: JSONValue) throws(RESTError) -> SQLValue {
        let elements: [String?]
        switch value {
        case .string(let text):
            guard let parsed = ArrayLiteral.parse(text) else { throw ArrayLiteralRefusal.malformed(text) }
            elements = parsed
        case .array(let items):
            elements = try items.map { (item) throws(RESTError) -> String? in
                switch item {
                case .null: return nil
                case .string(let text): return text
                case .number(let number): return number
                case .bool(let flag): return flag ? "true" : "false"
                case .array, .object: throw ArrayLiteralRefusal.malformed(value.jsonText, detail: "Only one-dimensional arrays of scalars are supported.")
                }
            }
        default:
            throw ArrayLiteralRefusal.malformed(value.jsonText)
        }
        return dialect == .postgres ? .literal(ArrayLiteral.format(elements)) : .text(ArrayLiteralRefusal.json(elements))
    }

    /// Refuses a write the role has no grant for (PostgreSQL's `permission denied`).
    func requireGrant(_ command: TableCommand) throws(RESTError) {
        guard dialect == .sqlite, role != .serviceRole else { return }
        guard let policy = Schema.policy(for: table.name), policy.isGranted(command, to: role) else {
            throw RESTError(
                status: role == .anon ? .unauthorized : .forbidden, code: .insufficientPrivilege,
                message: "permission denied for table \(table.name)")
        }
    }

    func insert(_ row: [String: JSONValue], plan: WritePlan) throws(RESTError) -> SQL {
        var names: [String] = []
        var values: [SQL] = []
        for name in plan.columns {
            guard let column = table.column(name) else {
                throw RESTError(
                    status: .badRequest, code: .unknownBodyColumn, message: "Could not find the '\(name)' column of '\(table.name)' in the schema cache")
            }
            guard let value = row[name] else {
                if plan.missingDefault { continue }
                names.append(quote(name))
                values.append("\(SQLValue.null)")
                continue
            }
            names.append(quote(name))
            values.append("\(try writeValue(value, for: column))")
        }
        var sql =
            names.isEmpty
            ? SQL.raw("INSERT INTO \(quote(table.name)) DEFAULT VALUES")
            : SQL.raw("INSERT INTO \(quote(table.name)) (\(names.joined(separator: ", "))) VALUES (") + SQL.join(values, separator: ", ") + SQL.raw(")")
        if let resolution = plan.resolution, let target = try conflictTarget(plan) {
            let updates = names.filter { name in !target.contains { quote($0) == name } }
            if resolution == .ignoreDuplicates || updates.isEmpty {
                sql.append(SQL.raw(" ON CONFLICT (\(target.map(quote).joined(separator: ", "))) DO NOTHING"))
            } else {
                var assignments = updates.filter { stamp == nil || $0 != quote("updated_at") }.map { "\($0) = excluded.\($0)" }
                if let stamp { assignments.append(stamp) }
                sql.append(SQL.raw(" ON CONFLICT (\(target.map(quote).joined(separator: ", "))) DO UPDATE SET \(assignments.joined(separator: ", "))"))
            }
        }
        return sql + SQL.raw(" RETURNING *")
    }

    /// `on_conflict=` or the primary key; `nil` when there is neither (a plain insert).
    func conflictTarget(_ plan: WritePlan) throws(RESTError) -> [String]? {
        if let names = plan.onConflict {
            for name in names where table.column(name) == nil { throw .unknownColumn(table.name, name) }
            return names
        }
        let keys = table.columns.filter(\.isPrimaryKey).map(\.name)
        return keys.isEmpty ? nil : keys
    }

    /// On SQLite, the assignment that stamps `updated_at` as PostgreSQL's trigger does (see
    /// ``Schema/stampedTables``); `nil` where the database stamps it itself.
    var stamp: String? {
        dialect == .sqlite && Schema.stampedTables.contains(table.name) ? "\(quote("updated_at")) = \(Schema.sqliteNow)" : nil
    }

    func update(_ row: [String: JSONValue], plan: WritePlan) throws(RESTError) -> SQL {
        var assignments: [SQL] = stamp.map { [SQL.raw($0)] } ?? []
        // Like PostgreSQL's trigger, the stamp wins over a value in the body.
        for name in plan.columns where stamp == nil || name != "updated_at" {
            guard let column = table.column(name) else {
                throw RESTError(
                    status: .badRequest, code: .unknownBodyColumn, message: "Could not find the '\(name)' column of '\(table.name)' in the schema cache")
            }
            assignments.append(SQL.raw("\(quote(name)) = ") + "\(try writeValue(row[name] ?? .null, for: column))")
        }
        return SQL.raw("UPDATE \(quote(table.name)) SET ") + SQL.join(assignments, separator: ", ")
            + (try whereClause(plan.filters, command: .update)) + SQL.raw(" RETURNING *")
    }

    func delete(plan: WritePlan) throws(RESTError) -> SQL {
        SQL.raw("DELETE FROM \(quote(table.name))") + (try whereClause(plan.filters, command: .delete)) + SQL.raw(" RETURNING *")
    }

    /// On SQLite, proves the rows a write produced pass the policy's `WITH CHECK`, as
    /// PostgreSQL's row-level security does; a failure aborts the whole request.
    func checkNewRows(_ rows: [SQLRow], command: TableCommand, in connection: any SQLConnection) async throws {
        guard dialect == .sqlite, role != .serviceRole, !rows.isEmpty,
            let key = table.columns.first(where: \.isPrimaryKey)?.name,
            let policy = Schema.policy(for: table.name)
        else { return }
        let predicate = policyPredicate(policy.rules(for: command, role: role).compactMap { $0.check ?? $0.using })
        for row in rows {
            let found = try await connection.first(
                SQL.raw("SELECT 1 AS ok FROM \(quote(table.name)) WHERE \(quote(key)) = ") + "\(row[key])" + SQL.raw(" AND (") + predicate + SQL.raw(")"))
            if found == nil {
                throw RESTError(
                    status: role == .anon ? .unauthorized : .forbidden, code: .insufficientPrivilege,
                    message: "new row violates row-level security policy for table \"\(table.name)\"")
            }
        }
    }
}
