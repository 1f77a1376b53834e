import Foundation
import LifeSignalBackend
import PostgresNIO
import Synchronization

/// A page read run as a named prepared statement, parsed and planned once per connection.
///
/// Measured on two cores (`Benchmarks/floor`): a server on Hummingbird and postgres-nio with
/// no logic at all reaches 0.54 of pgbench with unnamed statements, which PostgreSQL parses
/// and plans on every request, and 0.66 with a prepared one. PostgREST prepares its statements
/// too. postgres-nio prepares by type (`PostgresPreparedStatement` has a static `name` and
/// `sql`) while these statements are built per request, so the one being run is handed over
/// as a task-local value, which `PostgresConnection.execute` reads on the calling task before
/// it first suspends. Without one, the name and text are of a statement that fails loudly.
///
/// The statement's name covers its text and the types of its values: the types of the first
/// execution are the ones PostgreSQL keeps.
struct PreparedPageStatement: PostgresPreparedStatement {
    struct Shape: Sendable {
        let name: String
        let sql: String
    }

    @TaskLocal static var shape: Shape?

    static var name: String { shape?.name ?? "lifesignal_unprepared" }
    static var sql: String { shape?.sql ?? "SELECT lifesignal_prepared_statement_missing()" }

    typealias Row = (String?, Int64?, Int64?)

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }

    /// The name for `sql` with values of these kinds: FNV-1a over both.
    static func name(for sql: SQL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ byte: UInt8) {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        for byte in sql.text.utf8 { mix(byte) }
        for value in sql.bindings { mix(value.kindCode) }
        return "lifesignal_page_" + String(hash, radix: 16)
    }
}

extension SQLValue {
    /// One byte per kind of value, for a prepared statement's name: a statement prepared for
    /// one set of parameter types must not be run with another.
    fileprivate var kindCode: UInt8 {
        switch self {
        case .null: 0
        case .bool: 1
        case .int: 2
        case .double: 3
        case .text: 4
        case .uuid: 5
        case .timestamp: 6
        case .json: 7
        case .literal: 8
        case .bytes: 9
        }
    }
}

/// A page statement with its prepared statement's name, worked out once: a caller that runs
/// the same statement again and again (the REST plan cache keeps one per read) hashes its text
/// once, not on every read.
public struct PostgresPage: Sendable {
    /// A query returning one row of `body text, n bigint, total bigint`.
    public let statement: SQL
    let name: String

    public init(_ statement: SQL) {
        self.statement = statement
        name = PreparedPageStatement.name(for: statement)
    }
}

/// Which statements each pooled connection has prepared (or failed to prepare), so that no
/// connection holds more than ``limit`` of them: the query shapes come from requests, and a
/// stranger inventing new ones must not grow every backend without bound. A shape past the
/// limit runs unnamed as before, and so does one that failed once on a connection: a failed
/// preparation is kept by postgres-nio for the connection's life, and from the error alone a
/// failed preparation cannot be told from a failed execution, so either counts.
final class PreparedStatements: Sendable {
    static let limit = 64

    private struct Connection {
        var prepared: Set<String> = []
        var failed: Set<String> = []
    }
    private let connections = Mutex<[ObjectIdentifier: Connection]>([:])

    /// Whether `name` may run prepared on `connection` now (counting it as prepared).
    func mayPrepare(_ name: String, on connection: ObjectIdentifier) -> Bool {
        connections.withLock { connections in
            if connections.count > 1_024, connections[connection] == nil { connections.removeAll() }
            var entry = connections[connection] ?? Connection()
            defer { connections[connection] = entry }
            if entry.failed.contains(name) { return false }
            if entry.prepared.contains(name) { return true }
            guard entry.prepared.count < Self.limit else { return false }
            entry.prepared.insert(name)
            return true
        }
    }

    func failed(_ name: String, on connection: ObjectIdentifier) {
        _ = connections.withLock { connections in connections[connection, default: Connection()].failed.insert(name) }
    }

    func removeAll() {
        connections.withLock { connections in connections.removeAll() }
    }
}

extension PostgresDatabase {
    /// Runs a page read (one row of `body text, n bigint, total bigint`) on a leased
    /// connection, prepared when ``PreparedStatements`` allows it, unnamed otherwise.
    func runPage(_ page: PostgresPage, on connection: PostgresConnection) async throws -> (body: String, rows: Int, total: Int?) {
        let key = ObjectIdentifier(connection)
        let (statement, name) = (page.statement, page.name)
        guard preparedStatements.mayPrepare(name, on: key) else {
            let row = try await PostgresTransactionConnection(connection: connection, logger: logger).query(statement).first
            return (try row?.string("body") ?? "[]", try row?.int("n") ?? 0, row?.optionalInt("total"))
        }
        var bindings = PostgresBindings(capacity: statement.bindings.count)
        for value in statement.bindings { PostgresTransactionConnection.bind(value, into: &bindings) }
        let logger = self.logger
        do {
            return try await PreparedPageStatement.$shape.withValue(.init(name: name, sql: statement.text)) {
                var page: (body: String, rows: Int, total: Int?) = ("[]", 0, nil)
                // Read to the end (one row), so the connection goes back to the pool idle.
                for try await row in try await connection.execute(PreparedPageStatement(bindings: bindings), logger: logger) {
                    page = (row.0 ?? "[]", Int(row.1 ?? 0), row.2.map(Int.init))
                }
                return page
            }
        } catch let error as PSQLError {
            preparedStatements.failed(name, on: key)
            throw PostgresTransactionConnection.map(error)
        }
    }
}
