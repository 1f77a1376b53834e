import Foundation
import LifeSignalDomain
import Testing

@testable import LifeSignalBackend
@testable import LifeSignalSQLite

/// The read-only connections on SQLite's C API (`SQLiteReadConnection`) against the writer's
/// connection through sqlite-nio: the same values, the same errors, statements kept prepared
/// without holding a snapshot, and a close that neither loses nor hangs a read.
@Suite("SQLite read connections")
struct SQLiteReadConnectionTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-reader-\(UUID().uuidString).sqlite").path
    }

    /// A database with `notes (id, body)` holding `bodies` (ids 1, 2, …), and its path for a
    /// connection of the test's own.
    static func notes(_ bodies: [String]) async throws -> (database: SQLiteDatabase, path: String) {
        let path = Self.path()
        let database = try await SQLiteDatabase(path: path)
        try await database.query("CREATE TABLE notes (id integer PRIMARY KEY, body text)")
        for body in bodies { try await database.query("INSERT INTO notes (body) VALUES (\(SQLValue.text(body)))") }
        return (database, path)
    }

    static let kindsRows: [SQL] = [
        "INSERT INTO kinds VALUES (42, 1.5, 'héllo ✓ \"quoted\" \\ back', x'00ff10', NULL)",
        "INSERT INTO kinds VALUES (-9223372036854775808, -1e300, '', x'', NULL)",
        "INSERT INTO kinds VALUES (9223372036854775807, 0.1, \(SQLValue.text(String(repeating: "long text ", count: 20_000))), NULL, 'x')",
    ]

    @Test("every stored kind reads back exactly as the writer reads it: integers, reals, text, blobs, nulls")
    func valuesMatchTheWriter() async throws {
        let database = try await SQLiteDatabase(path: Self.path())
        defer { Task { try? await database.close() } }
        try await database.query("CREATE TABLE kinds (i integer, r real, t text, b blob, n text)")
        for row in Self.kindsRows { try await database.query(row) }
        let select: SQL = "SELECT i, r, t, b, n FROM kinds ORDER BY i"
        let written = try await database.query(select)
        let read = try await database.readStatement(select)
        #expect(read.count == 3)
        #expect(read == written)
        #expect(read.first?.values == [.int(Int64.min), .double(-1e300), .text(""), .bytes(Data()), .null])
        #expect(read[1].values[2] == .text("héllo ✓ \"quoted\" \\ back"))
        #expect(read[1].values[3] == .bytes(Data([0, 255, 16])))
        #expect(read[2].columns == ["i", "r", "t", "b", "n"])
    }

    @Test("every kind of binding finds its row, the empty string and the empty blob not as NULL")
    func bindingsFindTheirRows() async throws {
        let database = try await SQLiteDatabase(path: Self.path())
        defer { Task { try? await database.close() } }
        let id = UUID()
        let at = Date(timeIntervalSince1970: 1_790_000_000.25)
        try await database.query("CREATE TABLE kinds (k text, v)")
        let values: [(String, SQLValue)] = [
            ("uuid", .uuid(id)), ("timestamp", .timestamp(at)), ("true", .bool(true)), ("int", .int(-7)), ("double", .double(2.5)),
            ("empty text", .text("")), ("empty blob", .bytes(Data())), ("blob", .bytes(Data([1, 2]))), ("json", .json("{\"a\":1}")),
            ("null", .null),
        ]
        for (name, value) in values { try await database.query("INSERT INTO kinds VALUES (\(SQLValue.text(name)), \(value))") }
        for (name, value) in values where value != .null {
            let rows = try await database.readStatement("SELECT k FROM kinds WHERE v = \(value)")
            #expect(try rows.map { try $0.string("k") } == [name], "bound as \(value)")
        }
        #expect(try await database.readStatement("SELECT k FROM kinds WHERE v IS \(SQLValue.null)").first?.string("k") == "null")
    }

    @Test("text with a NUL is refused by a reader as by the writer (22021), and the readers still answer")
    func nulRefused() async throws {
        let database = try await SQLiteDatabase(path: Self.path())
        defer { Task { try? await database.close() } }
        try await database.query("CREATE TABLE notes (body text)")
        let refused = DatabaseError.statement(sqlState: "22021", message: "invalid byte sequence for encoding \"UTF8\": 0x00", detail: nil, hint: nil)
        await #expect(throws: refused) { try await database.readStatement("SELECT * FROM notes WHERE body = \(SQLValue.text("a\u{0}b"))") }
        await #expect(throws: refused) { try await database.query("INSERT INTO notes VALUES (\(SQLValue.text("a\u{0}b")))") }
        for _ in 0..<SQLiteReaders.count { #expect(try await database.readStatement("SELECT count(*) AS n FROM notes").first?.int("n") == 0) }
    }

    @Test("errors carry the SQLSTATE the writer's would: unknown column, unknown table, syntax")
    func errorsMapAsTheWriters() async throws {
        let database = try await SQLiteDatabase(path: Self.path())
        defer { Task { try? await database.close() } }
        try await database.query("CREATE TABLE notes (body text)")
        for (statement, state) in [("SELECT nope FROM notes", "42703"), ("SELECT * FROM missing", "42P01"), ("SELEC 1", "42601")] {
            var readerState: String?
            var writerState: String?
            do { _ = try await database.readStatement(SQL(statement)) } catch let error as DatabaseError { readerState = error.sqlState }
            do { _ = try await database.query(SQL(statement)) } catch let error as DatabaseError { writerState = error.sqlState }
            #expect(readerState == state, "\(statement)")
            #expect(writerState == state, "\(statement)")
        }
    }

    @Test("a kept statement answers for each binding; past the limit the kept ones are dropped, never more kept")
    func keptStatements() async throws {
        let (database, path) = try await Self.notes(["one", "two", "three"])
        defer { Task { try? await database.close() } }
        let connection = try SQLiteReadConnection(path: path)
        defer { connection.close() }
        for (id, body) in [(2, "two"), (1, "one"), (3, "three"), (2, "two")] {
            #expect(try connection.rows("SELECT body FROM notes WHERE id = \(SQLValue.int(Int64(id)))").first?.string("body") == body)
        }
        #expect(connection.keptStatementCount == 1)
        for shape in 0..<(SQLiteReadConnection.keptStatementLimit * 2 + 5) {
            #expect(try connection.rows(.raw("SELECT \(shape) AS n")).first?.int("n") == shape)
            #expect(connection.keptStatementCount <= SQLiteReadConnection.keptStatementLimit)
        }
        #expect(connection.keptStatementCount == 6)
    }

    @Test("a kept statement is not prepared again for new values, unless its plan depends on one (a bound LIMIT)")
    func keptStatementsAreNotPreparedAgain() async throws {
        let (database, path) = try await Self.notes((1...30).map { "note \($0)" })
        defer { Task { try? await database.close() } }
        let connection = try SQLiteReadConnection(path: path)
        defer { connection.close() }
        let literal = { (id: Int64) -> SQL in "SELECT body FROM notes WHERE id > \(SQLValue.int(id)) ORDER BY id LIMIT 5" }
        let bound = { (id: Int64) -> SQL in "SELECT body FROM notes WHERE id > 0 ORDER BY id LIMIT \(SQLValue.int(3 + id))" }
        for id in Int64(0)..<10 {
            #expect(try connection.rows(literal(id)).map { try $0.string("body") } == (1...5).map { "note \(id + Int64($0))" })
            #expect(try connection.rows(bound(id)).count == Int(3 + id))
        }
        #expect(connection.reprepareCount(literal(0).text) == 0)
        // Why the REST builder writes LIMIT and OFFSET into the text: SQLite plans with a bound
        // LIMIT's value, so binding it again re-prepares the statement.
        #expect((connection.reprepareCount(bound(0).text) ?? 0) >= 9)
    }

    @Test("a kept `SELECT *` shows a column added after it was prepared")
    func keptStatementFollowsTheSchema() async throws {
        let (database, path) = try await Self.notes(["one"])
        defer { Task { try? await database.close() } }
        let connection = try SQLiteReadConnection(path: path)
        defer { connection.close() }
        #expect(try connection.rows("SELECT * FROM notes").first?.columns == ["id", "body"])
        try await database.query("ALTER TABLE notes ADD COLUMN extra text DEFAULT 'x'")
        let row = try connection.rows("SELECT * FROM notes").first
        #expect(row?.columns == ["id", "body", "extra"])
        #expect(row?.values == [.int(1), .text("one"), .text("x")])
    }

    @Test("a transaction left open on a connection is ended before its next read, which sees the last commit")
    func openTransactionsAreLeft() async throws {
        let (database, path) = try await Self.notes(["one"])
        defer { Task { try? await database.close() } }
        let connection = try SQLiteReadConnection(path: path)
        defer { connection.close() }
        _ = try connection.rows("BEGIN")
        #expect(try connection.rows("SELECT count(*) AS n FROM notes").first?.int("n") == 1)
        try await database.query("INSERT INTO notes (body) VALUES ('two')")
        #expect(try connection.rows("SELECT count(*) AS n FROM notes").first?.int("n") == 2)
        _ = try connection.rows("BEGIN")
        #expect(try connection.snapshot(["SELECT count(*) AS n FROM notes"])[0].first?.int("n") == 2)
    }

    @Test("kept statements hold no snapshot: after reads the writer checkpoints the whole log")
    func keptStatementsHoldNoSnapshot() async throws {
        let (database, path) = try await Self.notes((0..<20).map { "note \($0)" })
        defer { Task { try? await database.close() } }
        for _ in 0..<(SQLiteReaders.count * 3) {
            #expect(try await database.readStatement("SELECT body FROM notes ORDER BY id").count == 20)
            _ = try await database.readSnapshot(["SELECT count(*) FROM notes", "SELECT id FROM notes LIMIT 1"])
        }
        try await database.query("INSERT INTO notes (body) VALUES ('after the reads')")
        // TRUNCATE waits for every reader to leave the log; a statement left holding a
        // snapshot would make it give up busy after the busy timeout. (The writer's
        // statements run inside a transaction, where no checkpoint can run.)
        let outside = try SQLiteReadConnection(path: path)
        defer { outside.close() }
        let checkpoint = try outside.rows("PRAGMA wal_checkpoint(TRUNCATE)").first
        #expect(checkpoint?.values.first == .int(0))
    }

    /// A read of minutes: counts to a billion. (Bounded, so that a broken deadline fails the
    /// test on its time checks instead of hanging the suite.)
    static let endless: SQL = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 1000000000) SELECT count(*) AS n FROM c"

    @Test("a read past its deadline is interrupted and answered unavailable; the readers read on")
    func readsPastTheirDeadlineAreInterrupted() async throws {
        let database = try await SQLiteDatabase(path: Self.path())
        defer { Task { try? await database.close() } }
        try await database.query("CREATE TABLE notes (body text)")
        database.readDeadline = .milliseconds(300)
        let clock = ContinuousClock()
        // As many at once as there are readers: each is stopped, none waits for another's end.
        let started = clock.now
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<SQLiteReaders.count {
                group.addTask {
                    do {
                        _ = try await database.readStatement(Self.endless)
                        return false
                    } catch let error as DatabaseError {
                        return error.isUnavailable
                    } catch {
                        return false
                    }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes == Array(repeating: true, count: SQLiteReaders.count))
        // Within a second of the deadline (the watchdog's slowest check), with slack for a loaded machine.
        #expect(clock.now - started < .seconds(5))
        for _ in 0..<(SQLiteReaders.count * 2) {
            #expect(try await database.readStatement("SELECT count(*) AS n FROM notes").first?.int("n") == 0)
        }
        // A snapshot's statements are stopped alike, and its transaction ended.
        await #expect(throws: DatabaseError.self) { try await database.readSnapshot(["SELECT 1", Self.endless]) }
        #expect(try await database.readSnapshot(["SELECT count(*) AS n FROM notes"])[0].first?.int("n") == 0)
    }

    @Test("a task's statement deadline overrides the database's, for its reads only")
    func theTasksDeadlineOverrides() async throws {
        let database = try await SQLiteDatabase(path: Self.path())
        defer { Task { try? await database.close() } }
        #expect(database.readDeadline == .seconds(600))
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: DatabaseError.self) {
            try await DatabasePatience.$statementDeadline.withValue(.milliseconds(200)) { try await database.readStatement(Self.endless) }
        }
        #expect(clock.now - started < .seconds(5))
        // Outside the task-local, a read that ends on its own is not cut short.
        let counted = try await database.readStatement(
            "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 300000) SELECT count(*) AS n FROM c")
        #expect(try counted.first?.int("n") == 300_000)
    }

    @Test("many reads at once each get their own row; closing finishes those queued and refuses later ones")
    func concurrentReadsAndClose() async throws {
        let (database, _) = try await Self.notes((1...200).map { "note \($0)" })
        let mismatches = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 1...200 {
                group.addTask {
                    try await database.readStatement("SELECT body FROM notes WHERE id = \(SQLValue.int(Int64(index)))").first?.string("body") != "note \(index)"
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(mismatches == 0)

        let outcomes = await withTaskGroup(of: String.self) { group in
            for _ in 0..<100 {
                group.addTask {
                    do {
                        return try await database.readStatement("SELECT count(*) AS n FROM notes").first?.int("n") == 200 ? "read" : "wrong"
                    } catch let error as DatabaseError where error.isUnavailable {
                        return "refused"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            group.addTask {
                try? await database.close()
                return "closed"
            }
            return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(outcomes["closed"] == 1)
        #expect((outcomes["read"] ?? 0) + (outcomes["refused"] ?? 0) == 100, "\(outcomes)")
        await #expect(throws: DatabaseError.self) { try await database.readStatement("SELECT 1") }
    }
}
