import Foundation
import Logging

extension ChangeCapture {
    /// Changes committed from now on, in commit order, read from the database's change log.
    ///
    /// The feed keeps its position in the log, so nothing committed after it started is
    /// skipped: a read that fails (the database restarting) is retried from the same position
    /// until it succeeds, and the feed is pulled, so a slow consumer holds it back instead of
    /// overflowing a buffer. It only ends when the task is cancelled. On SQLite the log is read
    /// every `pollInterval`; on PostgreSQL each `NOTIFY` from the capture trigger wakes it (and
    /// it reads at least every ``postgresFallbackInterval``, for a notification lost while
    /// `LISTEN` reconnected). `onReady` runs once the starting position is known: changes
    /// committed from then on will be delivered.
    public static func changes(
        from database: any Database, pollInterval: Duration = .milliseconds(100), onReady: @escaping @Sendable () -> Void = {}
    ) -> CapturedChanges {
        CapturedChanges(database: database, pollInterval: pollInterval, onReady: onReady)
    }

    /// How often PostgreSQL's log is read when no notification arrives.
    public static let postgresFallbackInterval = Duration.seconds(1)
}

/// Where a ``CapturedChanges`` reads from: the next changes after its position, waiting for some.
///
/// An engine with a change log of its own (PostgreSQL's, woken by `NOTIFY`) supplies its reader
/// through ``Database/makeChangeLogReader()``; the others are polled (``SQLiteChangeLog``).
public protocol ChangeLogReader: AnyObject {
    /// Establishes the starting position (retrying until the database answers).
    func start() async throws
    /// The changes committed after the position, in commit order, advancing past them; waits
    /// for the next poll or wake-up first. Throws only `CancellationError`.
    func nextBatch() async throws -> [CapturedChange]
}

extension Database {
    /// No reader of its own: the change log is polled.
    public func makeChangeLogReader() -> (any ChangeLogReader)? { nil }
}

/// The sequence ``ChangeCapture/changes(from:pollInterval:onReady:)`` returns.
public struct CapturedChanges: AsyncSequence {
    public typealias Element = CapturedChange
    let database: any Database
    let pollInterval: Duration
    let onReady: @Sendable () -> Void

    public func makeAsyncIterator() -> Iterator {
        let reader = database.makeChangeLogReader() ?? SQLiteChangeLog(database: database, interval: pollInterval)
        return Iterator(reader: reader, onReady: onReady)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let reader: any ChangeLogReader
        let onReady: @Sendable () -> Void
        var started = false
        var batch: [CapturedChange] = []
        var index = 0

        public mutating func next() async throws -> CapturedChange? {
            if !started {
                try await reader.start()
                started = true
                onReady()
            }
            while index >= batch.count {
                if Task.isCancelled { return nil }
                batch = try await reader.nextBatch()
                index = 0
            }
            defer { index += 1 }
            return batch[index]
        }
    }
}

extension ChangeCapture {
    package static let logger = Logger(label: "lifesignal.realtime")

    /// Runs `read` until it succeeds, waiting longer after each failure (0.1 s doubling to
    /// 1 s): the position is kept, so a database away for a while delays changes, never
    /// drops them. Only cancellation ends it.
    package static func untilSuccess<T>(_ what: String, _ read: () async throws -> T) async throws -> T {
        var delay = Duration.milliseconds(100)
        var failures = 0
        while true {
            try Task.checkCancellation()
            do {
                let value = try await read()
                if failures > 0 { logger.notice("realtime: \(what) works again after \(failures) failures") }
                return value
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                if failures == 0 { logger.error("realtime: \(what) failed; retrying from the same position", metadata: ["error": "\(error)"]) }
                failures += 1
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(1))
            }
        }
    }

    /// One row of either engine's log as a change (`nil` for a kind this version does not know).
    package static func change(from row: SQLRow) throws -> CapturedChange? {
        guard let kind = CapturedChange.Kind(rawValue: try row.string("kind")) else { return nil }
        return CapturedChange(
            table: try row.string("table_name"), kind: kind,
            key: decodeKey(row.optionalString("key")), oldKey: decodeKey(row.optionalString("old_key")),
            commitTimestamp: try row.string("committed_at"), oldRow: row.optionalString("old_row"))
    }
}

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
