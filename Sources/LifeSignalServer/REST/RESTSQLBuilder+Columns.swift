import Foundation
import LifeSignalBackend

/// Column privileges (`GRANT SELECT (a, b) ON …`) as the planner applies them, on both engines.
///
/// A role that may not read every column of a table (``AccessPolicy/readableColumns``: anon and
/// signed-in non-editors do not read content's `created_by`) has `select=*` expand to the
/// columns it may read, so the hidden one is simply absent; naming a hidden column anywhere —
/// `select`, a filter, `order`, `on_conflict` — is refused before any SQL with PostgreSQL's
/// SQLSTATE 42501 and its words for a column privilege. PostgreSQL's own column grants back
/// this up: a statement that slipped past here would fail there.
extension RESTSQLBuilder {
    /// The columns this builder's role may read; `nil` for every column.
    var readableColumns: Set<String>? {
        guard role != .serviceRole else { return nil }
        return Schema.policy(for: table.name)?.readable(by: role)
    }

    /// The table's columns this role may read, in table order.
    var visibleColumns: [ColumnSchema] {
        guard let readable = readableColumns else { return table.columns }
        return table.columns.filter { readable.contains($0.name) }
    }

    /// Refuses a column the role may not read, after checking it exists (an unknown column is
    /// `42703` whatever the privileges, as in PostgreSQL).
    func readableColumn(_ name: String) throws(RESTError) -> ColumnSchema {
        guard let column = table.column(name) else { throw .unknownColumn(table.name, name) }
        if let readable = readableColumns, !readable.contains(name) {
            throw RESTError(
                status: role == .anon ? .unauthorized : .forbidden, code: .insufficientPrivilege,
                message: "permission denied for column \"\(name)\" of relation \"\(table.name)\"")
        }
        return column
    }
}
