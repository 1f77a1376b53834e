import LifeSignalBackend

/// SQLite's log, read by rowid. Transactions on SQLite are serialised (one writer), so a
/// transaction's rows get their ids and commit before the next one writes: id order is commit
/// order and no smaller id can appear after a larger one has been read. The capture triggers
/// keep the newest ``ChangeCapture/sqliteRetainedChanges`` rows.
final class SQLiteChangeLog: ChangeLogReader {
    let database: any Database
    let interval: Duration
    private var last: Int64 = 0
    /// The last read filled a batch: read on at once instead of waiting for the next poll.
    private var behind = false
    private static let batchSize = 1_000

    init(database: any Database, interval: Duration) {
        self.database = database
        self.interval = interval
    }

    func start() async throws {
        last = try await ChangeCapture.untilSuccess("reading the change log") {
            Int64(try await database.query("SELECT coalesce(max(id), 0) AS last FROM lifesignal_realtime_changes").first?.int("last") ?? 0)
        }
    }

    func nextBatch() async throws -> [CapturedChange] {
        if !behind { try await Task.sleep(for: interval) }
        let after = last
        let rows = try await ChangeCapture.untilSuccess("reading the change log") {
            try await database.query(
                SQL(
                    """
                    SELECT id, table_name, kind, key, old_key, old_row, committed_at FROM lifesignal_realtime_changes
                    WHERE id > $1 ORDER BY id LIMIT \(Self.batchSize)
                    """, bindings: [.int(after)]))
        }
        if let first = rows.first, case let firstID = try first.int("id"), firstID > after + 1, after > 0 {
            // Only the trigger's pruning leaves a hole (SQLite does not reuse rolled-back ids):
            // more than the retained count were written between two reads.
            ChangeCapture.logger.error("realtime: changes \(after + 1)..<\(firstID) were pruned before they were read")
        }
        behind = rows.count == Self.batchSize
        var changes: [CapturedChange] = []
        for row in rows {
            last = Int64(try row.int("id"))
            if let change = try ChangeCapture.change(from: row) { changes.append(change) }
        }
        return changes
    }
}
