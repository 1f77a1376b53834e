import Foundation
import SQLiteNIO

extension SQLiteDatabase {
    /// Runs `body` in a read transaction on one of the read-only connections: one snapshot of
    /// the last commit, taken without waiting for the writer or for other readers.
    ///
    /// Reads are most of what a server does, and the one writing connection takes its
    /// transactions in turn; a read queued behind every write and every other read is what
    /// made the embedded engine slow under load. A statement that tries to write fails
    /// (`query_only`). An in-memory database has no readers: its reads take the writer's turn.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        guard let readers else { return try await transaction(body) }
        return try await readers.read(body)
    }

    /// Runs one statement on a read-only connection in autocommit: a statement is its own
    /// snapshot, so a read that is one statement needs no `BEGIN` and `COMMIT`, each a trip to
    /// SQLite's thread of its own.
    public func readStatement(_ statement: SQL) async throws -> [SQLRow] {
        guard let readers else { return try await transaction { try await $0.query(statement) } }
        return try await readers.statement(statement)
    }
}

/// A few read-only connections to one SQLite file, each used by one read at a time.
final class SQLiteReaders: Sendable {
    /// Two cores serve at most two reads at once; a third connection lets one read's
    /// statement run while another's result is being turned into JSON.
    static let count = 3

    private let connections: [SQLiteConnection]
    private let locks: [AsyncLock]
    private let turn = TurnCounter()

    init(path: String) async throws {
        var connections: [SQLiteConnection] = []
        do {
            for _ in 0..<Self.count {
                let connection = try await SQLiteConnection.open(storage: .file(path: path))
                connections.append(connection)
                for pragma in ["PRAGMA query_only=ON", "PRAGMA busy_timeout=5000"] {
                    _ = try await connection.query(pragma, [])
                }
            }
        } catch {
            for connection in connections { try? await connection.close() }
            throw DatabaseError.unavailable("cannot open SQLite file \(path) for reading: \(error)")
        }
        self.connections = connections
        locks = connections.map { _ in AsyncLock() }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let index = turn.next() % connections.count
        let connection = SQLiteTransactionConnection(connection: connections[index])
        return try await locks[index].withLock { try await connection.inTransaction("BEGIN DEFERRED", body) }
    }

    func statement(_ statement: SQL) async throws -> [SQLRow] {
        let index = turn.next() % connections.count
        let connection = SQLiteTransactionConnection(connection: connections[index])
        return try await locks[index].withLock { try await connection.query(statement) }
    }

    func close() async throws {
        for connection in connections where !connection.isClosed { try await connection.close() }
    }

    deinit {
        for connection in connections where !connection.isClosed { _ = connection.close() }
    }
}

/// Hands out 0, 1, 2, … to spread reads over the connections.
private final class TurnCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value &+= 1
            return value & Int.max
        }
    }
}
