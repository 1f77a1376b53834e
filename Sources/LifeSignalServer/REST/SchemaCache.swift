import Foundation
import LifeSignalBackend
import Synchronization

/// The exposed tables, read from the database at start (and again on ``reload()``).
///
/// Read on every `/rest/v1` request, so a lookup is a lock and a dictionary access, not a hop
/// to an actor.
final class SchemaCache: Sendable {
    /// The tables as one reload left them, numbered so that whatever was derived from one
    /// snapshot (``RESTReadPlanCache``) can tell it is out of date.
    struct Snapshot: Sendable {
        let generation: Int
        let tables: [String: TableSchema]
    }

    private let database: any Database
    private let current = Mutex<Snapshot>(Snapshot(generation: 0, tables: [:]))

    init(database: any Database) { self.database = database }

    func reload() async throws {
        let tables = try await Introspection.tables(in: database)
        current.withLock { current in current = Snapshot(generation: current.generation + 1, tables: tables) }
    }

    var snapshot: Snapshot { current.withLock { $0 } }

    func table(_ name: String) -> TableSchema? { snapshot.tables[name] }

    var all: [TableSchema] { Array(snapshot.tables.values) }
}
