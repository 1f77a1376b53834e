import LifeSignalBackend

/// The exposed tables, read from the database at start (and again on ``reload()``).
actor SchemaCache {
    private let database: any Database
    private var tables: [String: TableSchema] = [:]

    init(database: any Database) { self.database = database }

    func reload() async throws { tables = try await Introspection.tables(in: database) }

    func table(_ name: String) -> TableSchema? { tables[name] }

    var all: [TableSchema] { Array(tables.values) }
}
