import Foundation
import LifeSignalBackend
import LifeSignalDomain
import NIOCore
import SQLiteNIO
import Synchronization

/// The embedded engine: one SQLite file, one writing connection whose transactions are taken
/// in turn, and a few read-only connections for ``readStatement(_:)`` and ``readSnapshot(_:)``.
///
/// WAL mode lets readers (these, or a `lifesignal` command beside a running server) read the
/// last commit while a write is under way, and `busy_timeout` makes a second writer wait for
/// the write lock instead of failing at once.
public final class SQLiteDatabase: Database {
    public let dialect = SQLDialect.sqlite
    public let location: String
    private let connection: SQLiteConnection
    private let lock = AsyncLock()
    /// `nil` for an in-memory database, which another connection would not see.
    let readers: SQLiteReaders?
    private let readDeadlineValue = Mutex(Duration.seconds(600))

    /// The longest one read on a read-only connection may run before it is interrupted and
    /// fails as ``DatabaseError/unavailable(_:)``: 10 minutes unless set (`lifesignal serve`
    /// sets its statement deadline, 15 s); ``DatabasePatience/statementDeadline`` overrides it
    /// for a task. Checked within a second of passing.
    public var readDeadline: Duration {
        get { readDeadlineValue.withLock { $0 } }
        set { readDeadlineValue.withLock { $0 = newValue } }
    }

    public init(path: String) async throws {
        location = path
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path))
            for pragma in [
                "PRAGMA journal_mode=WAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000", "PRAGMA synchronous=NORMAL",
                // Statistics for the planner, refreshed for tables that grew a lot
                // since the last open (SQLite's advice for long-lived connections).
                "PRAGMA optimize=0x10002",
            ] {
                _ = try await connection.query(pragma, [])
            }
        } catch {
            throw DatabaseError.unavailable("cannot open SQLite file \(path): \(error)")
        }
        readers = path == ":memory:" || path.isEmpty ? nil : try SQLiteReaders(path: path)
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let connection = SQLiteTransactionConnection(connection: self.connection)
        return try await lock.withLock {
            // IMMEDIATE takes the write lock up front, so two processes never both read and
            // then fail to upgrade; the loser waits for `busy_timeout` instead.
            try await connection.inTransaction("BEGIN IMMEDIATE", body)
        }
    }

    /// Ends a transaction even when the caller's task was cancelled: a cancelled `ROLLBACK`
    /// would leave the one connection inside the transaction, and every later `BEGIN` would
    /// fail ("cannot start a transaction within a transaction"). An unstructured task does not
    /// inherit the cancellation.
    static func uncancelled(_ statement: @escaping @Sendable () async throws -> [SQLRow]) async throws {
        _ = try await Task { try await statement() }.value
    }

    public func close() async throws {
        await readers?.close()
        if !connection.isClosed { try await connection.close() }
    }

    deinit {
        // A database dropped without `close()` (a test, a failed start) still closes its file;
        // the pending close keeps the connection alive until it has run.
        if !connection.isClosed { _ = connection.close() }
    }
}

struct SQLiteTransactionConnection: SQLConnection {
    let connection: SQLiteConnection
    var dialect: SQLDialect { .sqlite }

    /// Runs `body` between `begin` and `COMMIT`, or `ROLLBACK` when it throws; both end the
    /// transaction even when the caller was cancelled.
    func inTransaction<T: Sendable>(_ begin: String, _ body: @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        _ = try await run(begin)
        do {
            let result = try await body(self)
            try await SQLiteDatabase.uncancelled { try await run("COMMIT") }
            return result
        } catch {
            try? await SQLiteDatabase.uncancelled { try await run("ROLLBACK") }
            throw error
        }
    }

    func query(_ sql: SQL) async throws -> [SQLRow] {
        try await run(sql.sqliteText, try sql.bindings.map(Self.bind))
    }

    func run(_ text: String, _ binds: [SQLiteData] = []) async throws -> [SQLRow] {
        do {
            // The row-callback variant steps the statement on SQLite's thread and hands rows
            // over synchronously; the array-returning one hops to the event loop once per
            // row, which cost more than the query itself for a page of 50.
            let collected = RowCollector()
            try await connection.query(text, binds) { collected.append($0) }
            let rows = collected.rows
            guard let names = rows.first?.columns.map(\.name) else { return [] }
            return rows.map { row in SQLRow(columns: names, values: row.columns.map { Self.value($0.data) }) }
        } catch let error as SQLiteError {
            throw Self.map(error)
        }
    }

    /// - Throws: ``DatabaseError/statement(sqlState:message:detail:hint:)`` with PostgreSQL's
    ///   `22021` for text holding a NUL. PostgreSQL refuses such text; SQLite would store it
    ///   and sqlite-nio read back only what comes before the NUL, so a write answered as a
    ///   success would lose the rest. Both engines refuse it alike.
    static func bind(_ value: SQLValue) throws -> SQLiteData {
        switch value {
        case .null: return .null
        case .bool(let flag): return .integer(flag ? 1 : 0)
        case .int(let number): return .integer(SQLiteInt64(number))
        case .double(let number): return .float(number)
        case .text(let text), .json(let text), .literal(let text):
            try refuseNUL(text)
            return .text(text)
        case .uuid(let uuid): return .text(uuid.uuidString.lowercased())
        case .timestamp(let date): return .text(Timestamp.format(date))
        case .bytes(let data): return .blob(ByteBuffer(bytes: data))
        }
    }

    static func refuseNUL(_ text: String) throws {
        guard !text.utf8.contains(0) else {
            throw DatabaseError.statement(sqlState: "22021", message: "invalid byte sequence for encoding \"UTF8\": 0x00", detail: nil, hint: nil)
        }
    }

    static func value(_ data: SQLiteData) -> SQLValue {
        switch data {
        case .null: .null
        case .integer(let number): .int(Int64(number))
        case .float(let number): .double(number)
        case .text(let text): .text(text)
        case .blob(let buffer): .bytes(Data(buffer.readableBytesView))
        }
    }

    /// Gives SQLite's constraint failures the SQLSTATE PostgreSQL would report.
    static func map(_ error: SQLiteError) -> DatabaseError {
        let unavailable =
            switch error.reason {
            case .busy, .locked, .busyTimeout, .cantOpen, .ioError, .full, .readOnly: true
            default: false
            }
        return map(message: error.message, unavailable: unavailable)
    }

    /// A constraint's SQLSTATE by its message; otherwise ``DatabaseError/unavailable(_:)``
    /// when the file cannot be used just now (busy, locked, I/O, full, read-only), else `XX000`.
    static func map(message: String, unavailable: Bool) -> DatabaseError {
        let table: [(String, String)] = [
            ("UNIQUE constraint failed", "23505"), ("NOT NULL constraint failed", "23502"),
            ("FOREIGN KEY constraint failed", "23503"), ("CHECK constraint failed", "23514"),
            ("no such column", "42703"), ("no such table", "42P01"), ("syntax error", "42601"),
        ]
        if let state = table.first(where: { message.contains($0.0) })?.1 {
            return .statement(sqlState: state, message: message, detail: nil, hint: nil)
        }
        return unavailable ? .unavailable(message) : .statement(sqlState: "XX000", message: message, detail: nil, hint: nil)
    }
}

/// Rows handed over by SQLite's thread, one statement at a time.
private final class RowCollector: Sendable {
    private let collected = Mutex<[SQLiteRow]>([])

    func append(_ row: SQLiteRow) { collected.withLock { $0.append(row) } }
    var rows: [SQLiteRow] { collected.withLock { $0 } }
}
