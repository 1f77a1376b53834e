import Foundation
import LifeSignalBackend

/// The threads that run reads on the SQLite file, each with a read-only connection of its own.
///
/// A read is queued for whichever thread is free, runs there, and resumes its caller: one
/// hop to the thread and one back, and an event loop never waits on the file. The queue is
/// the only line a read waits in; no connection is checked out across an `await`.
///
/// A watchdog thread interrupts a read that runs past its deadline (`sqlite3_interrupt`), as
/// PostgreSQL's connections are closed under a statement past theirs: without it one costly
/// read would hold a reader, and a few would hold them all.
///
/// `@unchecked` because its state is guarded by `condition`, an `NSCondition`: the reader
/// threads sleep on it until a job comes, which a `Mutex` cannot do.
final class SQLiteReaderThreads: @unchecked Sendable {
    typealias Job = (deadline: ContinuousClock.Instant, work: @Sendable (SQLiteReadConnection) -> Void)

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var head = 0
    private var stopping = false
    private var running: Int
    private var stopped: [CheckedContinuation<Void, Never>] = []
    private let connections: [SQLiteReadConnection]
    /// The deadline of the read each connection is running, `nil` while it waits.
    private var deadlines: [ContinuousClock.Instant?]

    /// Starts one thread per connection; each closes its connection when the threads stop.
    init(connections: [SQLiteReadConnection], name: String) {
        self.connections = connections
        running = connections.count
        deadlines = connections.map { _ in nil }
        for index in connections.indices {
            let thread = Thread { [self] in serve(index) }
            thread.name = "\(name) \(index + 1)"
            thread.start()
        }
        let watchdog = Thread { [self] in watch() }
        watchdog.name = "\(name) watchdog"
        watchdog.start()
    }

    /// Runs `work` on a reader's connection and returns what it returns; past `deadline` the
    /// statement it runs is interrupted.
    ///
    /// - Throws: what `work` throws (``DatabaseError/unavailable(_:)`` for an interrupted
    ///   statement), or ``DatabaseError/unavailable(_:)`` once ``stop()`` was called.
    func run<T: Sendable>(deadline: ContinuousClock.Instant, _ work: @escaping @Sendable (SQLiteReadConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let queued = enqueue((deadline, { connection in continuation.resume(with: Result { try work(connection) }) }))
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

    private func enqueue(_ job: Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    private func serve(_ index: Int) {
        let connection = connections[index]
        while let work = next(index) { work(connection) }
        connection.close()
        condition.lock()
        running -= 1
        let waiting = running == 0 ? stopped : []
        if running == 0 { stopped.removeAll() }
        condition.unlock()
        for continuation in waiting { continuation.resume() }
    }

    /// The next queued job for connection `index`, or `nil` once stopping and none is left.
    private func next(_ index: Int) -> (@Sendable (SQLiteReadConnection) -> Void)? {
        condition.lock()
        defer { condition.unlock() }
        deadlines[index] = nil
        while head == jobs.count, !stopping { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        deadlines[index] = job.deadline
        return job.work
    }

    /// Interrupts every read past its deadline: checked every 100 ms while a read runs, every
    /// second while none does, so a read is stopped within a second of its deadline at most.
    /// Interrupting under the lock keeps a thread from taking its next read in between: a
    /// connection between reads ignores an interrupt.
    private func watch() {
        while true {
            condition.lock()
            if stopping, running == 0 {
                condition.unlock()
                return
            }
            let now = ContinuousClock.now
            var busy = false
            for index in deadlines.indices {
                guard let deadline = deadlines[index] else { continue }
                busy = true
                if deadline < now { connections[index].interrupt() }
            }
            condition.unlock()
            Thread.sleep(forTimeInterval: busy ? 0.1 : 1)
        }
    }
}
