import Foundation

extension ChangeCapture {
    /// Changes committed from now on, in commit order.
    ///
    /// On PostgreSQL they arrive by `LISTEN` as soon as each transaction commits, from any
    /// server or client of the database. On SQLite the capture table is read every
    /// `pollInterval` (one indexed range query; the embedded server is its only writer, so
    /// rowid order is commit order). The stream ends when the consumer stops iterating.
    /// `onReady` runs once changes from that moment on are sure to be delivered.
    public static func changes(
        from database: any Database, pollInterval: Duration = .milliseconds(100), onReady: @escaping @Sendable () -> Void = {}
    ) -> AsyncThrowingStream<CapturedChange, any Error> {
        let (stream, continuation) = AsyncThrowingStream<CapturedChange, any Error>.makeStream(bufferingPolicy: .bufferingNewest(100_000))
        let task = Task {
            do {
                if let postgres = database as? PostgresDatabase {
                    for try await payload in postgres.listen(channel: postgresChannel, onListening: onReady) {
                        if let change = decodeNotification(payload) { continuation.yield(change) }
                    }
                } else {
                    try await pollSQLite(database, every: pollInterval, onReady: onReady) { continuation.yield($0) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private static func pollSQLite(_ database: any Database, every interval: Duration, onReady: () -> Void, yield: (CapturedChange) -> Void) async throws {
        var last = try await database.query("SELECT coalesce(max(id), 0) AS last FROM lifesignal_realtime_changes").first?.int("last") ?? 0
        onReady()
        while !Task.isCancelled {
            try await Task.sleep(for: interval)
            let rows = try await database.query("""
                SELECT id, table_name, kind, key, old_key, committed_at FROM lifesignal_realtime_changes
                WHERE id > \(last) ORDER BY id LIMIT 1000
                """)
            for row in rows {
                last = try row.int("id")
                guard let kind = CapturedChange.Kind(rawValue: try row.string("kind")) else { continue }
                yield(CapturedChange(
                    table: try row.string("table_name"), kind: kind,
                    key: decodeKey(row.optionalString("key")), oldKey: decodeKey(row.optionalString("old_key")),
                    commitTimestamp: try row.string("committed_at")))
            }
        }
    }
}
