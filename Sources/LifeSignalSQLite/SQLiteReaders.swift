import Foundation
import LifeSignalBackend

extension SQLiteDatabase {
    /// Runs one statement on a read-only connection in autocommit: a snapshot of the last
    /// commit, taken without waiting for the writer or for other readers.
    ///
    /// Reads are most of what a server does, and the one writing connection takes its
    /// transactions in turn; a read queued behind every write and every other read is what
    /// made the embedded engine slow under load. A statement that tries to write fails
    /// (`query_only`). An in-memory database has no readers: its reads take the writer's turn.
    public func readStatement(_ statement: SQL) async throws -> [SQLRow] {
        guard let readers else { return try await transaction { try await $0.query(statement) } }
        return try await readers.threads.run(deadline: readStopsAt()) { try $0.rows(statement) }
    }

    /// Runs several statements on one read-only connection, all reading one snapshot (a page
    /// and its total, say), in the order given.
    public func readSnapshot(_ statements: [SQL]) async throws -> [[SQLRow]] {
        guard let readers else {
            return try await transaction { connection in
                var results: [[SQLRow]] = []
                for statement in statements { results.append(try await connection.query(statement)) }
                return results
            }
        }
        return try await readers.threads.run(deadline: readStopsAt()) { try $0.snapshot(statements) }
    }

    /// When a read starting now is interrupted: ``DatabasePatience/statementDeadline`` for the
    /// task, else ``readDeadline``.
    private func readStopsAt() -> ContinuousClock.Instant {
        ContinuousClock.now + (DatabasePatience.statementDeadline ?? readDeadline)
    }
}

/// A few read-only connections to one SQLite file, each on a thread of its own.
final class SQLiteReaders: Sendable {
    /// Two cores serve at most two reads at once; a third connection lets one read's
    /// statement run while another's result is being turned into JSON.
    static let count = 3

    let threads: SQLiteReaderThreads

    init(path: String) throws {
        var connections: [SQLiteReadConnection] = []
        do {
            for _ in 0..<Self.count { connections.append(try SQLiteReadConnection(path: path)) }
        } catch {
            for connection in connections { connection.close() }
            throw error
        }
        threads = SQLiteReaderThreads(connections: connections, name: "SQLite reader")
    }

    /// Finishes the reads already asked for, then closes the connections.
    func close() async { await threads.stop() }

    deinit { threads.stopSoon() }
}
