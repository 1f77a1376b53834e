import Foundation
import LifeSignalBackend
import PostgresNIO

/// Reads PostgreSQL's change log by snapshot, not by id.
///
/// Ids come from a sequence when a row is written, not when its transaction commits: a
/// transaction holding id 9 may commit after one holding id 10 was read, so "every id after the
/// last one read" would skip 9. The position is therefore a snapshot (`pg_current_snapshot()`):
/// each read returns the rows whose transaction was not yet visible in the previous snapshot but
/// is now (`pg_visible_in_snapshot`), in id order, together with the new snapshot, all in one
/// statement (one snapshot). A transaction committing late is simply read later; one that rolled
/// back never appears. Transaction ids survive a restart of PostgreSQL, so the position does too.
///
/// A read returns at most ``pageSize`` changes. A burst (a bulk insert of 100,000 rows) used
/// to come back as one result held whole in memory, and the server's memory stayed at its
/// peak after it (500 MiB after seeding the benchmark). So the new snapshot is fixed when a
/// burst is first seen and the rows between the two snapshots are read in id order, a page at
/// a time; the position moves to the new snapshot once the last page is read.
final class PostgresChangeLog: ChangeLogReader {
    let database: PostgresDatabase
    let pageSize: Int
    private var snapshot = ""
    /// While a burst is read page by page: the snapshot it ends at and the last id read.
    private var draining: (snapshot: String, after: Int)?
    private let wakeUps: AsyncStream<Void>
    private var wakeIterator: AsyncStream<Void>.Iterator
    private let wakeTask: Task<Void, Never>
    /// Snapshots taken about a minute apart, for pruning by age.
    private var history: [(at: ContinuousClock.Instant, snapshot: String)] = []

    init(database: PostgresDatabase, pageSize: Int = 1_000) {
        self.database = database
        self.pageSize = max(pageSize, 1)
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wakeUps = stream
        wakeIterator = stream.makeAsyncIterator()
        wakeTask = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    // The stream reconnects by itself and ends only when cancelled.
                    let notifications = database.listen(channel: ChangeCapture.postgresChannel, onListening: { continuation.yield() })
                    do {
                        for try await _ in notifications { continuation.yield() }
                    } catch {}
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: ChangeCapture.postgresFallbackInterval)
                        continuation.yield()
                    }
                }
            }
        }
    }

    deinit { wakeTask.cancel() }

    func start() async throws {
        snapshot = try await ChangeCapture.untilSuccess("reading the change log position") {
            try await database.query("SELECT pg_current_snapshot()::text AS snapshot").first?.string("snapshot") ?? ""
        }
        history = [(.now, snapshot)]
    }

    func nextBatch() async throws -> [CapturedChange] {
        if draining == nil {
            guard await wakeIterator.next() != nil, !Task.isCancelled else { throw CancellationError() }
            let next = try await ChangeCapture.untilSuccess("reading the change log position") {
                try await database.query("SELECT pg_current_snapshot()::text AS snapshot").first?.string("snapshot") ?? ""
            }
            draining = (next, Int.min)
        }
        guard let (next, after) = draining, !Task.isCancelled else { throw CancellationError() }
        let previous = snapshot
        // Rows of transactions visible in the new snapshot but not in the previous one; later
        // statements see the same set, since the new snapshot is fixed while it is drained.
        let rows = try await ChangeCapture.untilSuccess("reading the change log") {
            try await database.query(
                SQL(
                    """
                    SELECT id, table_name, kind, key::text, old_key::text, old_row::text, committed_at FROM lifesignal_realtime_changes
                    WHERE xid >= pg_snapshot_xmin($1::text::pg_snapshot) AND NOT pg_visible_in_snapshot(xid, $1::text::pg_snapshot)
                      AND pg_visible_in_snapshot(xid, $2::text::pg_snapshot) AND id > $3
                    ORDER BY id LIMIT $4
                    """, bindings: [.text(previous), .text(next), .int(Int64(after)), .int(Int64(pageSize))]))
        }
        var changes: [CapturedChange] = []
        var last = after
        for row in rows {
            last = max(last, try row.int("id"))
            if let change = try ChangeCapture.change(from: row) { changes.append(change) }
        }
        if rows.count < pageSize {
            snapshot = next
            draining = nil
            await pruneIfDue()
        } else {
            draining = (next, last)
        }
        return changes
    }

    /// About once a minute, deletes the rows of transactions that had all ended before a
    /// snapshot older than ``ChangeCapture/postgresRetention``. Every server on the database
    /// does it; the deletes are idempotent.
    private func pruneIfDue() async {
        guard let newest = history.last, newest.at.duration(to: .now) >= .seconds(60) else { return }
        history.append((.now, snapshot))
        guard let cutoff = history.last(where: { $0.at.duration(to: .now) >= ChangeCapture.postgresRetention }) else { return }
        history.removeAll { $0.at < cutoff.at }
        do {
            try await database.query(
                SQL(
                    "DELETE FROM lifesignal_realtime_changes WHERE xid < pg_snapshot_xmin($1::text::pg_snapshot)",
                    bindings: [.text(cutoff.snapshot)]))
        } catch {
            ChangeCapture.logger.warning("realtime: pruning the change log failed; retried in a minute", metadata: ["error": "\(error)"])
        }
    }
}
