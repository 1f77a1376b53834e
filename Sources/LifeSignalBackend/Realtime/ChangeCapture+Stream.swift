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
/// Each engine supplies its reader through ``Database/makeChangeLogReader(pollInterval:)``:
/// PostgreSQL's is woken by `NOTIFY`, SQLite's polls.
public protocol ChangeLogReader: AnyObject {
    /// Establishes the starting position (retrying until the database answers).
    func start() async throws
    /// The changes committed after the position, in commit order, advancing past them; waits
    /// for the next poll or wake-up first. Throws only `CancellationError`.
    func nextBatch() async throws -> [CapturedChange]
}

/// The sequence ``ChangeCapture/changes(from:pollInterval:onReady:)`` returns.
public struct CapturedChanges: AsyncSequence {
    public typealias Element = CapturedChange
    let database: any Database
    let pollInterval: Duration
    let onReady: @Sendable () -> Void

    public func makeAsyncIterator() -> Iterator {
        let reader = database.makeChangeLogReader(pollInterval: pollInterval)
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
