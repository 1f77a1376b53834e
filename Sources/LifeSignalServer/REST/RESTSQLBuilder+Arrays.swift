import LifeSignalBackend

/// PostgREST's `cs`, `cd` and `ov` filters (`@>`, `<@`, `&&`).
extension RESTSQLBuilder {
    /// PostgreSQL compares the literal itself (arrays, and `jsonb` too). SQLite keeps arrays
    /// as JSON arrays, so the same set logic is spelled with `json_each`, with PostgreSQL's
    /// NULL rules: a `NULL` element equals nothing, and a `NULL` column gives an unknown
    /// result, which neither the filter nor its `not.` form keeps.
    func arrayPredicate(_ column: ColumnSchema, _ op: FilterOperator, _ text: String) throws(RESTError) -> SQL {
        let name = quote(column.name)
        let symbol =
            switch op {
            case .cs: "@>"
            case .cd: "<@"
            default: "&&"
            }
        guard dialect == .sqlite else { return SQL.raw("\(name) \(symbol) ") + "\(SQLValue.literal(text))" }
        guard column.type.hasSuffix("[]") else {
            throw RESTError(
                status: .notFound, code: .undefinedFunction, message: "operator does not exist: \(column.type) \(symbol) unknown",
                hint: "No operator matches the given name and argument types. You might need to add explicit type casts.")
        }
        guard let elements = ArrayLiteral.parse(text) else { throw ArrayLiteralRefusal.malformed(text) }
        let given = SQLValue.text(ArrayLiteralRefusal.json(elements))
        let stored = SQL.raw(name)
        let condition: SQL =
            switch op {
            case .cs:
                // Every given element is in the column.
                "NOT EXISTS (SELECT 1 FROM json_each(\(given)) g WHERE g.value IS NULL OR g.value NOT IN (SELECT s.value FROM json_each(\(stored)) s WHERE s.value IS NOT NULL))"
            case .cd:
                // Every stored element is among the given ones.
                "NOT EXISTS (SELECT 1 FROM json_each(\(stored)) s WHERE s.value IS NULL OR s.value NOT IN (SELECT g.value FROM json_each(\(given)) g WHERE g.value IS NOT NULL))"
            default:
                "EXISTS (SELECT 1 FROM json_each(\(stored)) s JOIN json_each(\(given)) g ON s.value = g.value)"
            }
        return "CASE WHEN \(stored) IS NULL THEN NULL ELSE \(condition) END"
    }
}
