import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Database")
struct DatabaseTests {
    @Test("timestamps print with microseconds in UTC and parse back exactly")
    func timestamps() throws {
        let date = Date(timeIntervalSince1970: 1_717_588_800.123456)
        #expect(Timestamp.format(date) == "2024-06-05T12:00:00.123456+00:00")
        let parsed = try #require(Timestamp.parse("2024-06-05T12:00:00.123456+00:00"))
        #expect(abs(parsed.timeIntervalSince(date)) < 0.000001)
        #expect(Timestamp.parse("2024-06-05T14:00:00+02:00") == Date(timeIntervalSince1970: 1_717_588_800))
        #expect(Timestamp.parse("2024-06-05T12:00:00Z") == Date(timeIntervalSince1970: 1_717_588_800))
        #expect(Timestamp.parse("2024-06-05 12:00:00") == Date(timeIntervalSince1970: 1_717_588_800))
        #expect(Timestamp.postgresText(date) == "2024-06-05T12:00:00.123456+00:00")
        #expect(Timestamp.postgresText(Date(timeIntervalSince1970: 1_717_588_800.5)) == "2024-06-05T12:00:00.5+00:00")
        #expect(Timestamp.postgresText(Date(timeIntervalSince1970: 1_717_588_800)) == "2024-06-05T12:00:00+00:00")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000000+00:00")
        for bad in ["", "2024-13-01T00:00:00Z", "2024-06-05", "2024-06-05T12:00:00+2", "2024-06-05T12:00:00.Z", "yesterday"] {
            #expect(Timestamp.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("interpolated values become numbered parameters, renumbered when joined")
    func sqlParameters() {
        let name = "O'Brien; DROP TABLE users"
        let first: SQL = "SELECT * FROM t WHERE a = \(name) AND b = \(3)"
        #expect(first.text == "SELECT * FROM t WHERE a = $1 AND b = $2")
        #expect(first.bindings == [.text(name), .int(3)])
        let joined = first + " AND c = \(true)"
        #expect(joined.text.hasSuffix("c = $3"))
        #expect(joined.sqliteText == "SELECT * FROM t WHERE a = ?1 AND b = ?2 AND c = ?3")
        let quoted = SQL.raw("SELECT '$1', \"$2\" FROM t WHERE x = $1")
        #expect(quoted.sqliteText == "SELECT '$1', \"$2\" FROM t WHERE x = ?1")
    }

    @Test("values round-trip through each engine with their types", arguments: Engine.allCases)
    func roundTrip(engine: Engine) async throws {
        let database = try await TestDatabases.make(engine)
        try await database.query("CREATE TABLE sample (id uuid PRIMARY KEY, at timestamptz, flag boolean, n integer, note text)")
        let id = UUID()
        let at = Date(timeIntervalSince1970: 1_800_000_000.5)
        try await database.query("INSERT INTO sample VALUES (\(SQLValue(id)), \(SQLValue(at)), \(true), \(42), \("hi"))")
        let row = try #require(try await database.query("SELECT * FROM sample WHERE id = \(SQLValue(id))").first)
        #expect(try row.uuid("id") == id)
        #expect(try row.date("at") == at)
        #expect(try row.bool("flag"))
        #expect(try row.int("n") == 42)
        #expect(try row.string("note") == "hi")
    }

    @Test("a failing transaction leaves nothing behind, and constraint errors carry PostgreSQL's SQLSTATE", arguments: Engine.allCases)
    func rollback(engine: Engine) async throws {
        let database = try await TestDatabases.make(engine)
        try await database.query("CREATE TABLE pair (id integer PRIMARY KEY)")
        await #expect {
            try await database.transaction { connection in
                try await connection.query("INSERT INTO pair VALUES (\(1))")
                try await connection.query("INSERT INTO pair VALUES (\(1))")
            }
        } throws: { ($0 as? DatabaseError)?.sqlState == "23505" }
        #expect(try await database.query("SELECT count(*) AS n FROM pair").first?.int("n") == 0)
    }

    @Test("a PostgreSQL URL without the PostgreSQL engine is refused by name, not opened as a SQLite path")
    func postgresNeedsItsEngine() async throws {
        await #expect {
            _ = try await DatabaseFactory.open(url: "postgres://nobody@127.0.0.1:1/none", engines: [.sqlite])
        } throws: { error in
            guard case .configuration(let why)? = error as? DatabaseError else { return false }
            return why.contains("LifeSignalPostgres")
        }
    }

    @Test("the rules open nothing by themselves: a file path without the SQLite engine is refused, with it opened")
    func plainPathsNeedAnEngine() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("engine-\(UUID().uuidString).sqlite").path
        await #expect {
            _ = try await DatabaseFactory.open(url: path, engines: [])
        } throws: { error in
            guard case .configuration(let why)? = error as? DatabaseError else { return false }
            return why.contains(path)
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was created")
        let database = try await DatabaseFactory.open(url: "sqlite://" + path, engines: [.sqlite])
        #expect(database.dialect == .sqlite)
        #expect(try await database.query("SELECT 1 AS one").first?.int("one") == 1)
        try await database.close()
        try? FileManager.default.removeItem(atPath: path)
    }
}
