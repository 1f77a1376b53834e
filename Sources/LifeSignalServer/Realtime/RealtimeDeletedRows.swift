import Foundation
import LifeSignalBackend

/// Who may hear of a deleted row.
///
/// A delete goes to a group of subscribers only if their own `GET` could have read the row
/// just before it was deleted. The row is gone by then, so the capture trigger kept its key
/// and the columns the table's read policies look at (``CapturedChange/oldRow``, see
/// ``ChangeCapture/deletedRowColumns``); that old row is bound as a one-row table named like
/// the real one (a CTE, which hides the real table within the statement), and the table's
/// `SELECT` policy and the subscriber's filter are evaluated against it, as the subscriber:
///
/// ```sql
/// WITH "alerts" AS (SELECT "id", "user_id" FROM jsonb_populate_record(NULL::public."alerts", '…'))  -- SQLite: json_extract
/// SELECT "id", "user_id" FROM "alerts" WHERE (<policy>) AND (<filter>)
/// ```
///
/// The policy is the same ``AccessPolicy`` declaration PostgreSQL enforces as row-level
/// security and the server applies on SQLite. Parts of it that read other tables (a responder
/// through `contacts`, an alert's owner through `alerts`) read them as they are when the delete
/// is delivered, under the subscriber's role (on PostgreSQL with those tables' own row-level
/// security, as inside a policy): a relation deleted in the same transaction — an account
/// deletion removes its contacts with its rows — no longer counts, so those subscribers miss
/// that delete rather than anyone hearing of a row they could not read. A policy or filter
/// naming a column the log did not keep fails to evaluate, and the delete is not delivered.
extension RealtimeDispatcher {
    /// Whether subscribers reading as `caller` with `claims` and `filter` could read the
    /// deleted row. The service role bypasses policies, as on Supabase: it hears of every
    /// delete its filter (if any) matches.
    func couldRead(deleted change: CapturedChange, in table: TableSchema, as caller: Caller, claims: TokenClaims?, filter: FilterNode?) async -> Bool {
        let role = DatabaseRole.acting(as: caller, claims: claims)
        if filter == nil, role == .serviceRole || Self.readsEveryRow(table.name, role: role) { return true }
        do {
            guard
                let (select, columns) = try Self.deletedRowSelect(
                    change, in: table, dialect: backend.database.dialect, as: caller, claims: claims, filter: filter)
            else { return false }
            hub.counters.read()
            let page = try await CallerTransaction(database: backend.database)
                .readPage(caller: caller, claims: claims, select: select, columns: columns)
            return page.rows == 1
        } catch {
            // A column the log did not keep, or a filter value the column's type refuses:
            // nothing this group may be told.
            logger.debug("realtime: delete not delivered", metadata: ["table": "\(table.name)", "error": "\(error)"])
            return false
        }
    }

    /// A granted role with a policy admitting every row (`USING (true)`) could read any row:
    /// no read is needed to know it.
    static func readsEveryRow(_ table: String, role: DatabaseRole) -> Bool {
        guard let policy = Schema.policy(for: table), policy.isGranted(.select, to: role) else { return false }
        return policy.rules(for: .select, role: role).contains { $0.using?.trimmingCharacters(in: .whitespaces).lowercased() == "true" }
    }

    /// The statement that returns the deleted row's kept columns if `caller` could read it
    /// and `filter` matches it; `nil` when no read is needed to know the answer is no (no
    /// grant, no policy for the role, or nothing kept: a delete logged before migration 200).
    static func deletedRowSelect(
        _ change: CapturedChange, in table: TableSchema, dialect: SQLDialect, as caller: Caller,
        claims: TokenClaims?, filter: FilterNode?
    ) throws -> (SQL, [(name: String, column: ColumnSchema)])? {
        var expressions: [String] = []
        let builder = RESTSQLBuilder(table: table, dialect: dialect, caller: caller, claims: claims)
        if builder.role != .serviceRole {
            guard let policy = Schema.policy(for: table.name), policy.isGranted(.select, to: builder.role) else { return nil }
            expressions = policy.rules(for: .select, role: builder.role).compactMap(\.using)
            guard !expressions.isEmpty else { return nil }
        }
        guard let text = change.oldRow, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            !object.isEmpty
        else { return nil }
        var columns: [(name: String, column: ColumnSchema)] = []
        for name in object.keys.sorted() {
            guard let column = table.column(name) else { throw RESTError.unknownColumn(table.name, name) }
            columns.append((name, column))
        }
        let name = builder.quote(table.name)
        let list = columns.map { builder.quote($0.name) }.joined(separator: ", ")
        var select: SQL
        switch dialect {
        case .postgres:
            // The table's row type reads each value back as its column's type.
            select =
                SQL.raw("WITH \(name) AS (SELECT \(list) FROM jsonb_populate_record(NULL::public.\(name), ")
                + "\(SQLValue.text(text))" + SQL.raw("::jsonb)) ")
        case .sqlite:
            // `json_object` kept the values as stored; `json_extract` gives them back so.
            let values = columns.map { column -> SQL in
                let path = SQLValue.text("$.\"" + column.name + "\"")
                return "json_extract(\(SQLValue.text(text)), \(path)) AS " + SQL.raw(builder.quote(column.name))
            }
            select = SQL.raw("WITH \(name) AS (SELECT ") + SQL.join(values, separator: ", ") + SQL.raw(") ")
        }
        select.append(SQL.raw("SELECT \(list) FROM \(name)"))
        // On SQLite the builder applies the policy itself, as for every read.
        select.append(try builder.whereClause(filter.map { [$0] } ?? [], command: .select))
        if dialect == .postgres, !expressions.isEmpty {
            // Row-level security does not apply to a CTE: the declared policy is spelled out,
            // and `auth.uid()` reads the claims the read runs with.
            let policy = "(" + expressions.map { "(\($0))" }.joined(separator: " OR ") + ")"
            select.append(SQL.raw((filter == nil ? " WHERE " : " AND ") + policy))
        }
        return (select, columns)
    }
}
