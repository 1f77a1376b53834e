import Foundation

/// The threads that run reads on the SQLite file, each with a read-only connection of its own.
///
/// A read is queued for whichever thread is free, runs there, and resumes its caller: one
/// hop to the thread and one back, and an event loop never waits on the file. The queue is
/// the only line a read waits in; no connection is checked out across an `await`.
final class SQLiteReaderThreads: @unchecked Sendable {
    typealias Job = @Sendable (SQLiteReadConnection) -> Void

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var stopping = false
    private var running: Int
    private var stopped: [CheckedContinuation<Void, Never>] = []

    /// Starts one thread per connection; each closes its connection when the threads stop.
    init(connections: [SQLiteReadConnection], name: String) {
        running = connections.count
        for (index, connection) in connections.enumerated() {
            let thread = Thread { [self] in serve(connection) }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
    }

    /// Runs `work` on a reader's connection and returns what it returns.
    ///
    /// - Throws: what `work` throws, or ``DatabaseError/unavailable(_:)`` once ``stop()`` was called.
    func run<T: Sendable>(_ work: @escaping @Sendable (SQLiteReadConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let queued = enqueue { connection in continuation.resume(with: Result { try work(connection) }) }
            if !queued { continuation.resume(throwing: DatabaseError.unavailable("the SQLite database is closed")) }
        }
    }

    /// Lets the threads finish the reads already queued, close their connections and end,
    /// and returns when they have.
    func stop() async {
        await withCheckedContinuation { continuation in
            condition.lock()
            stopping = true
            condition.broadcast()
            if running == 0 {
                condition.unlock()
                continuation.resume()
            } else {
                stopped.append(continuation)
                condition.unlock()
            }
        }
    }

    /// ``stop()`` without waiting, for an owner dropped without closing.
    func stopSoon() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func enqueue(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    private func serve(_ connection: SQLiteReadConnection) {
        while let job = next() { job(connection) }
        connection.close()
        condition.lock()
        running -= 1
        let waiting = running == 0 ? stopped : []
        if running == 0 { stopped.removeAll() }
        condition.unlock()
        for continuation in waiting { continuation.resume() }
    }

    /// The next queued job, or `nil` once stopping and none is left.
    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count, !stopping { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }
}
