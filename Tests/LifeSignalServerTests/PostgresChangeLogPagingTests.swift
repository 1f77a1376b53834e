import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

@testable import LifeSignalPostgres

/// PostgreSQL's change log is read a page at a time, so a burst of changes (a bulk insert)
/// never comes back as one result held whole in the server's memory.
@Suite("Realtime change log on PostgreSQL: pages")
struct PostgresChangeLogPagingTests {
    @Test("a burst larger than a page comes in pages, in id order, each change once; a commit made meanwhile follows it")
    func aBurstComesInPages() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let database = try #require(test.backend.database as? PostgresDatabase)
        let log = PostgresChangeLog(database: database, pageSize: 10)
        try await log.start()
        try await database.query(Self.insertLocations(1...25))

        var pages = [try await log.nextBatch()]
        // Committed while the burst is being read: not part of it, read after it.
        try await database.query(Self.insertLocations(26...28))
        var rounds = 0
        while pages.joined().count < 28, rounds < 30 {  // a bound against a hang: each round waits at most a second
            pages.append(try await log.nextBatch())
            rounds += 1
        }

        #expect(pages.prefix(3).map(\.count) == [10, 10, 5])
        let slugs = try await Self.slugs(of: Array(pages.joined()), in: database)
        #expect(slugs == (1...28).map { "paged-\($0)" })
    }

    static func insertLocations(_ numbers: ClosedRange<Int>) -> SQL {
        SQL(
            """
            INSERT INTO locations (id, name, slug, status)
            SELECT gen_random_uuid(), 'Paged ' || n, 'paged-' || n, 'published' FROM generate_series($1::int, $2::int) AS n ORDER BY n
            """, bindings: [.int(Int64(numbers.lowerBound)), .int(Int64(numbers.upperBound))])
    }

    /// The changes' rows by slug, in the order the changes came.
    static func slugs(of changes: [CapturedChange], in database: PostgresDatabase) async throws -> [String] {
        var slugs: [String] = []
        for change in changes {
            #expect(change.table == "locations" && change.kind == .insert)
            let id = try #require(change.key?["id"])
            let row = try await database.query(SQL("SELECT slug FROM locations WHERE id = $1::uuid", bindings: [.text(id)])).first
            slugs.append(try #require(row).string("slug"))
        }
        return slugs
    }
}
