import NIOCore
import PostgresNIO

/// The anonymous seed-004 list read, exactly as `Benchmarks/rest` gives it to pgbench: the
/// page of 50 as one JSON text. The body is taken as the cell's bytes (no `String`), so the
/// server adds nothing to what the database sends.
enum LocationsPage {
    static let sql =
        "SELECT coalesce(json_agg(_r), '[]')::text FROM (SELECT * FROM locations WHERE deleted_at IS NULL"
        + " ORDER BY sort_order ASC NULLS LAST, name ASC NULLS LAST LIMIT 50) _r"

    /// The unnamed statement: parsed and planned by PostgreSQL on every call.
    static func readUnnamed(_ client: PostgresClient) async throws -> ByteBuffer {
        try await firstCell(of: client.query(PostgresQuery(unsafeSQL: sql)))
    }

    /// The named statement: prepared once per connection by postgres-nio, then only bound and executed.
    static func readPrepared(_ client: PostgresClient) async throws -> ByteBuffer {
        var body = ByteBuffer()
        for try await cell in try await client.execute(Prepared()) { body = cell }
        return body
    }

    private static func firstCell(of rows: PostgresRowSequence) async throws -> ByteBuffer {
        var body = ByteBuffer()
        // The whole sequence is read: the connection goes back to the pool only at its end.
        for try await row in rows { body = try row.decode(ByteBuffer.self) }
        return body
    }

    struct Prepared: PostgresPreparedStatement {
        typealias Row = ByteBuffer
        static let name = "floor_locations_page"
        static let sql = LocationsPage.sql

        func makeBindings() -> PostgresBindings { PostgresBindings() }
        func decodeRow(_ row: PostgresRow) throws -> ByteBuffer { try row.decode(ByteBuffer.self) }
    }
}
