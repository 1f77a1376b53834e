import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import Testing

/// `SQLiteDatabase.readStatement(_:)` and `readSnapshot(_:)`: read-only connections beside the
/// one writer.
@Suite("SQLite reads beside the writer")
struct SQLiteReadersTests {
    static func database() async throws -> SQLiteDatabase {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-readers-\(UUID().uuidString).sqlite").path
        let database = try await SQLiteDatabase(path: path)
        try await database.query("CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)")
        try await database.query("INSERT INTO notes (body) VALUES ('first')")
        return database
    }

    /// Runs `body` while a transaction that inserted the row 'second' holds the write lock,
    /// then lets that transaction commit.
    static func whileAWriteIsOpen<T: Sendable>(on database: SQLiteDatabase, _ body: () async throws -> T) async throws -> T {
        let (inserted, insertedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let writer = Task {
            try await database.transaction { connection in
                try await connection.query("INSERT INTO notes (body) VALUES ('second')")
                insertedSignal.yield()
                for await _ in release { break }  // hold the write open until `body` is done
            }
        }
        for await _ in inserted { break }
        // Released whatever `body` does: a failed read must fail the test, not hang it.
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        releaseSignal.yield()
        try await writer.value
        return try result.get()
    }

    @Test("a read does not wait for a write in progress, and sees the last commit, not the write")
    func readsBesideAWrite() async throws {
        let database = try await Self.database()
        defer { Task { try? await database.close() } }
        let during = try await Self.whileAWriteIsOpen(on: database) {
            try await database.readSnapshot(["SELECT body FROM notes ORDER BY id", "SELECT count(*) AS n FROM notes"])
        }
        #expect(try during[0].map { try $0.string("body") } == ["first"])
        #expect(try during[1].first?.int("n") == 1)
        let after = try await database.readSnapshot(["SELECT body FROM notes ORDER BY id"])
        #expect(try after[0].map { try $0.string("body") } == ["first", "second"])
    }

    @Test("a read cannot write: the statement fails and the data is unchanged")
    func readsAreReadOnly() async throws {
        let database = try await Self.database()
        defer { Task { try? await database.close() } }
        await #expect(throws: DatabaseError.self) {
            try await database.readSnapshot(["SELECT count(*) FROM notes", "DELETE FROM notes"])
        }
        #expect(try await database.query("SELECT count(*) AS n FROM notes").first?.int("n") == 1)
        // The failed read ended its transaction: the connections still read.
        for _ in 0..<6 {
            #expect(try await database.readSnapshot(["SELECT count(*) AS n FROM notes"])[0].first?.int("n") == 1)
        }
    }

    @Test("many reads at once all answer")
    func concurrentReads() async throws {
        let database = try await Self.database()
        defer { Task { try? await database.close() } }
        let counts = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<64 { group.addTask { try await database.readSnapshot(["SELECT count(*) AS n FROM notes"])[0].first?.int("n") } }
            return try await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 1, count: 64))
    }

    @Test("one statement without a transaction: read-only, beside a write in progress, in memory too")
    func oneStatement() async throws {
        let database = try await Self.database()
        defer { Task { try? await database.close() } }
        await #expect(throws: DatabaseError.self) { try await database.readStatement("DELETE FROM notes") }
        // Many at once, across the readers, while the write holds the lock: none waits for it.
        let during = try await Self.whileAWriteIsOpen(on: database) {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 { group.addTask { try await database.readStatement("SELECT body FROM notes").count } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        #expect(during == Array(repeating: 1, count: 12))
        #expect(try await database.readStatement("SELECT body FROM notes ORDER BY id").map { try $0.string("body") } == ["first", "second"])

        let memory = try await SQLiteDatabase(path: ":memory:")
        defer { Task { try? await memory.close() } }
        try await memory.query("CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)")
        try await memory.query("INSERT INTO notes (body) VALUES ('only')")
        #expect(try await memory.readStatement("SELECT body FROM notes").first?.string("body") == "only")
    }
}
