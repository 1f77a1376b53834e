/// A column as the schema cache sees it: its name and its declared PostgreSQL type.
public struct ColumnSchema: Sendable, Hashable {
    public let name: String
    /// Lower-case PostgreSQL type name: `uuid`, `text`, `integer`, `timestamptz`, `boolean`, …
    public let type: String
    public let isPrimaryKey: Bool
    /// `false` for `NOT NULL` columns, whose null ordering cannot matter (which lets SQLite
    /// sort by an index, see ``RESTSQLBuilder``).
    public let isNullable: Bool

    public init(name: String, type: String, isPrimaryKey: Bool = false, isNullable: Bool = true) {
        self.name = name
        self.type = type
        self.isPrimaryKey = isPrimaryKey
        self.isNullable = isNullable && !isPrimaryKey
    }
}

public struct TableSchema: Sendable, Hashable {
    public let name: String
    public let columns: [ColumnSchema]

    public func column(_ name: String) -> ColumnSchema? { columns.first { $0.name == name } }
}

/// Reads the exposed tables and their columns from the database itself, as PostgREST builds
/// its schema cache, so `/rest/v1` follows the migrations without a hand-kept list.
public enum Introspection {
    public static func tables(in database: any Database) async throws -> [String: TableSchema] {
        try await database.transaction { connection in
            var result: [String: TableSchema] = [:]
            switch connection.dialect {
            case .postgres:
                let rows = try await connection.query(
                    """
                    SELECT c.table_name, c.column_name, c.udt_name, c.is_nullable = 'YES' AS nullable,
                           EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                                   JOIN information_schema.table_constraints t
                                     ON t.constraint_name = k.constraint_name AND t.table_schema = k.table_schema
                                   WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema
                                     AND k.table_name = c.table_name AND k.column_name = c.column_name) AS is_pk
                    FROM information_schema.columns c
                    WHERE c.table_schema = 'public'
                    ORDER BY c.table_name, c.ordinal_position
                    """)
                var grouped: [String: [ColumnSchema]] = [:]
                var order: [String] = []
                for row in rows {
                    let table = try row.string("table_name")
                    if grouped[table] == nil { order.append(table) }
                    grouped[table, default: []].append(
                        ColumnSchema(
                            name: try row.string("column_name"), type: normalize(try row.string("udt_name")),
                            isPrimaryKey: try row.bool("is_pk"), isNullable: try row.bool("nullable")))
                }
                for table in order where !Schema.isPrivate(table) {
                    result[table] = TableSchema(name: table, columns: grouped[table] ?? [])
                }
            case .sqlite:
                let tables = try await connection.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
                for table in try tables.map({ try $0.string("name") }) where !Schema.isPrivate(table) {
                    let columns = try await connection.query(
                        SQL("SELECT name, type, pk, \"notnull\" AS not_null FROM pragma_table_info($1)", bindings: [.text(table)]))
                    result[table] = TableSchema(
                        name: table,
                        columns: try columns.map {
                            ColumnSchema(
                                name: try $0.string("name"), type: normalize(try $0.string("type")), isPrimaryKey: try $0.int("pk") > 0,
                                isNullable: try $0.int("not_null") == 0)
                        })
                }
            }
            return result
        }
    }

    /// One spelling per type on both engines (`int4` and `integer` are the same column).
    static func normalize(_ type: String) -> String {
        switch type.lowercased() {
        case "int4", "int", "integer", "int2", "smallint": "integer"
        case "int8", "bigint": "bigint"
        case "bool", "boolean": "boolean"
        case "float8", "double precision", "float4", "real": "double precision"
        case "varchar", "character varying", "text", "bpchar", "citext": "text"
        case "_text", "_varchar", "text[]": "text[]"
        case let other: other
        }
    }
}
