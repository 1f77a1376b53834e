import Foundation
import LifeSignalBackend
import LifeSignalDomain
// sqlite-nio's own copy of SQLite, not a second one: two copies of SQLite in one process do
// not see each other's POSIX locks on the same file, and closing a file in one drops the
// other's locks (SQLite's "How To Corrupt An SQLite Database File", 2.2.1).
import VaporCSQLite

/// One read-only connection to the SQLite file, driven through SQLite's C API, with its
/// statements kept prepared.
///
/// Reads are most of what a server does. Through sqlite-nio a read of 50 rows was prepared
/// anew every time, copied every value into `SQLiteData`, and handed each row to an event
/// loop as a task of its own (50 tasks and futures a page); here a kept statement is reset,
/// bound and stepped, and each value is read once, straight into a ``SQLValue``.
///
/// Used by one thread at a time: each of ``SQLiteReaderThreads``'s threads owns one.
/// `@unchecked` because that confinement, not a lock, is what keeps it safe: its C handles
/// are touched only by the owning thread (and ``interrupt()``, which SQLite allows from any).
final class SQLiteReadConnection: @unchecked Sendable {
    /// Statements kept prepared per connection. A stranger inventing query shapes cannot grow
    /// them: past this many, the kept ones are all finalized and the count starts again.
    static let keptStatementLimit = 64

    private var handle: OpaquePointer?
    /// The handle as opened, for ``interrupt()`` from the watchdog's thread, which must not
    /// read `handle` while this connection's thread may write it.
    private let opened: OpaquePointer
    private var kept: [String: OpaquePointer] = [:]

    /// Opens `path` read-write but `query_only`, as the writer's WAL needs its shared memory
    /// writable by readers; a statement that tries to write fails.
    init(path: String) throws {
        var handle: OpaquePointer?
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let opened = handle else {
            let message = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "status \(status)"
            sqlite_nio_sqlite3_close_v2(handle)
            throw DatabaseError.unavailable("cannot open SQLite file \(path) for reading: \(message)")
        }
        self.handle = opened
        self.opened = opened
        // The writer's `BEGIN IMMEDIATE` never blocks a WAL reader; a checkpoint's brief
        // exclusive moment or a recovery may, and is waited out.
        sqlite_nio_sqlite3_busy_timeout(opened, 5000)
        do {
            try execute("PRAGMA query_only=ON")
        } catch {
            close()
            throw error
        }
    }

    /// The rows of one statement, in autocommit: the statement is its own snapshot.
    func rows(_ sql: SQL) throws -> [SQLRow] {
        try leaveOpenTransaction()
        return try statementRows(sql)
    }

    /// The rows of several statements read from one snapshot (`BEGIN DEFERRED` … `COMMIT`).
    func snapshot(_ statements: [SQL]) throws -> [[SQLRow]] {
        try leaveOpenTransaction()
        try execute("BEGIN DEFERRED")
        do {
            let results = try statements.map(statementRows)
            try execute("COMMIT")
            return results
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Ends a transaction an earlier read left open, so no read runs on its old snapshot: a
    /// `ROLLBACK` the watchdog's interrupt cut short, or a statement that began one.
    private func leaveOpenTransaction() throws {
        guard let handle, sqlite_nio_sqlite3_get_autocommit(handle) == 0 else { return }
        try execute("ROLLBACK")
    }

    private func statementRows(_ sql: SQL) throws -> [SQLRow] {
        guard let handle else { throw DatabaseError.unavailable("the SQLite read connection is closed") }
        guard let statement = try prepared(sql.text, handle) else { return [] }
        // A statement left unreset would hold its snapshot open and keep the WAL from being
        // checkpointed past it. (Not `clear_bindings`: every parameter is bound again below,
        // and clearing marks a statement whose plan depends on a parameter for re-preparing.)
        defer { sqlite_nio_sqlite3_reset(statement) }
        for (offset, value) in sql.bindings.enumerated() {
            try check(Self.bind(value, at: Int32(offset + 1), in: statement), handle)
        }
        var rows: [SQLRow] = []
        var names: [String] = []
        while true {
            let status = sqlite_nio_sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw Self.failure(status, handle) }
            let count = sqlite_nio_sqlite3_column_count(statement)
            if rows.isEmpty {
                // Read at each run: a kept statement SQLite re-prepared after a schema change
                // may have other columns.
                names = (0..<count).map { sqlite_nio_sqlite3_column_name(statement, $0).map { String(cString: $0) } ?? "" }
            }
            var values: [SQLValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count { values.append(Self.value(statement, column)) }
            rows.append(SQLRow(columns: names, values: values))
        }
    }

    /// Makes the statement running on this connection fail with `SQLITE_INTERRUPT` at its next
    /// step; nothing if none runs. Callable from any thread while the connection is open.
    func interrupt() { sqlite_nio_sqlite3_interrupt(opened) }

    /// How many statements are kept prepared (for tests).
    var keptStatementCount: Int { kept.count }

    /// How many times SQLite prepared the kept statement for `text` again since it was first
    /// prepared (a schema change, or a bound parameter its plan depends on); `nil` if not kept.
    func reprepareCount(_ text: String) -> Int? {
        kept[text].map { Int(sqlite_nio_sqlite3_stmt_status($0, SQLITE_STMTSTATUS_REPREPARE, 0)) }
    }

    /// Finalizes the kept statements and closes the file. Further reads fail.
    func close() {
        for statement in kept.values { sqlite_nio_sqlite3_finalize(statement) }
        kept.removeAll()
        sqlite_nio_sqlite3_close_v2(handle)
        handle = nil
    }

    deinit { close() }

    private func execute(_ text: String) throws {
        guard let handle else { throw DatabaseError.unavailable("the SQLite read connection is closed") }
        try check(sqlite_nio_sqlite3_exec(handle, text, nil, nil, nil), handle)
    }

    /// The kept statement for `text` (`$n` placeholders), prepared on first use; `nil` for
    /// text without a statement (a comment, blanks).
    private func prepared(_ text: String, _ handle: OpaquePointer) throws -> OpaquePointer? {
        if let statement = kept[text] { return statement }
        var statement: OpaquePointer?
        let sqlite = SQL(text).sqliteText
        try check(sqlite_nio_sqlite3_prepare_v3(handle, sqlite, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), handle)
        guard let statement else { return nil }
        if kept.count >= Self.keptStatementLimit {
            for old in kept.values { sqlite_nio_sqlite3_finalize(old) }
            kept.removeAll(keepingCapacity: true)
        }
        kept[text] = statement
        return statement
    }

    private func check(_ status: Int32, _ handle: OpaquePointer) throws {
        guard status == SQLITE_OK else { throw Self.failure(status, handle) }
    }

    private static func failure(_ status: Int32, _ handle: OpaquePointer) -> DatabaseError {
        if status & 0xFF == SQLITE_INTERRUPT {
            return .unavailable("the read ran past its deadline and was interrupted")
        }
        let message = sqlite_nio_sqlite3_errmsg(handle).map { String(cString: $0) } ?? "SQLite status \(status)"
        let unavailable = [SQLITE_BUSY, SQLITE_LOCKED, SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_FULL, SQLITE_READONLY].contains(status & 0xFF)
        return SQLiteTransactionConnection.map(message: message, unavailable: unavailable)
    }

    /// Binds as ``SQLiteTransactionConnection/bind(_:)`` does for the writer: the same stored
    /// kinds, and text holding a NUL refused alike.
    private static func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer) throws -> Int32 {
        switch value {
        case .null: return sqlite_nio_sqlite3_bind_null(statement, index)
        case .bool(let flag): return sqlite_nio_sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case .int(let number): return sqlite_nio_sqlite3_bind_int64(statement, index, number)
        case .double(let number): return sqlite_nio_sqlite3_bind_double(statement, index, number)
        case .text(let text), .json(let text), .literal(let text):
            try SQLiteTransactionConnection.refuseNUL(text)
            return bindText(text, at: index, in: statement)
        case .uuid(let uuid): return bindText(uuid.uuidString.lowercased(), at: index, in: statement)
        case .timestamp(let date): return bindText(Timestamp.format(date), at: index, in: statement)
        case .bytes(let data):
            return data.withUnsafeBytes { bytes in
                // A zero-length blob still needs a non-null pointer, or SQLite binds NULL.
                sqlite_nio_sqlite3_bind_blob64(statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(bytes.count), transient)
            }
        }
    }

    private static func bindText(_ text: String, at index: Int32, in statement: OpaquePointer) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // The empty string too needs a non-null pointer, or SQLite binds NULL.
            let start = bytes.baseAddress.map { UnsafeRawPointer($0) } ?? UnsafeRawPointer(bitPattern: 1)
            return sqlite_nio_sqlite3_bind_text64(
                statement, index, start?.assumingMemoryBound(to: CChar.self), UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
        }
    }

    /// A column's value as the writer's connection reads it (``SQLiteTransactionConnection/value(_:)``);
    /// text whole, with its length from SQLite rather than up to a first NUL.
    private static func value(_ statement: OpaquePointer, _ column: Int32) -> SQLValue {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: return .int(sqlite_nio_sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: return .double(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            guard let blob = sqlite_nio_sqlite3_column_blob(statement, column), count > 0 else { return .bytes(Data()) }
            return .bytes(Data(bytes: blob, count: count))
        default: return .null
        }
    }
}

/// SQLite copies a value bound with this destructor before the bind returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
