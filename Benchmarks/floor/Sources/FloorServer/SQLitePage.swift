import Foundation
import NIOCore
import SQLiteNIO

/// The SQLite floor: a given statement (the anonymous read as `Benchmarks/rest` runs it
/// in-process, SQLite writing the page's JSON) on `count` read-only sqlite-nio connections,
/// each used by one request at a time, handed out in turn as `lifesignal serve` hands out its
/// readers. The first cell's text is the body.
final class SQLitePage: Sendable {
    private let connections: [SQLiteConnection]
    private let locks: [ConnectionLock]
    private let turn = Turn()
    private let sql: String

    init(path: String, sql: String, count: Int) async throws {
        var connections: [SQLiteConnection] = []
        for _ in 0..<count {
            let connection = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await connection.query("PRAGMA query_only=ON", [])
            connections.append(connection)
        }
        self.connections = connections
        locks = connections.map { _ in ConnectionLock() }
        self.sql = sql
    }

    func read() async throws -> ByteBuffer {
        let index = turn.next() % connections.count
        let connection = connections[index]
        let sql = sql
        return try await locks[index].withLock {
            let body = Body()
            try await connection.query(sql, []) { row in body.set(row.columns.first?.data.string ?? "[]") }
            return ByteBuffer(string: body.value)
        }
    }
}

/// One statement at a time on a connection, waiting in line.
actor ConnectionLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if isLocked { await withCheckedContinuation { waiters.append($0) } } else { isLocked = true }
        defer { if waiters.isEmpty { isLocked = false } else { waiters.removeFirst().resume() } }
        return try await body()
    }
}

private final class Turn: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value &+= 1
            return value & Int.max
        }
    }
}

private final class Body: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    func set(_ text: String) { lock.withLock { self.text = text } }
    var value: String { lock.withLock { text } }
}
