import Foundation
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// How the wait for leased work ended.
enum LeaseWait<T: Sendable>: Sendable {
    case finished(Result<T, any Error>)
    /// No connection came within the lease timeout.
    case noLease
    /// The work outlived its deadline and the watchdog's close.
    case stuck
}

/// Thrown inside a lease that came after its request stopped waiting: the connection goes
/// straight back to the pool.
struct LeaseTimedOut: Error {}

/// One lease's wait (``PostgresDatabase``'s `leaseOnce`): who answers the waiting request
/// first, the task running its work, and the three deadlines ``LeaseClock`` checks.
///
/// - **Lease timeout:** no connection within it answers ``LeaseWait/noLease``; a connection
///   leased later is handed straight back (``leased(_:)`` says no).
/// - **Statement deadline** (the watchdog), from the lease: the connection is closed. A
///   statement sent just as PostgreSQL restarts can be left with no answer, and the request
///   that sent it, or Realtime's dispatcher, would wait for good. Closing the connection makes
///   the pool drop it; it usually fails the statement too (answered 503, like any lost
///   connection), but not always — postgres-nio 1.33 was seen to leave a statement pending
///   after the close. Work that merely runs long is cut too, so the deadline is far above any
///   request's normal database time.
/// - **Give-up**, a grace after the watchdog's close: the request stops waiting for work the
///   close did not end (``LeaseWait/stuck``).
///
/// Its state is behind a `Mutex`, stored inline: `NSLock` on Linux was two allocations per
/// lease and a mutex to set up and tear down.
final class LeaseWaiter<T: Sendable>: LeaseDeadlines, Sendable {
    private enum Stage {
        case waiting
        /// Leased; the connection is closed at `closeBy` unless released first.
        case leased(PostgresConnection, closeBy: NIODeadline)
        /// The watchdog closed the connection; past `giveUpBy` the request stops waiting.
        case closed(giveUpBy: NIODeadline)
        /// No lease came in time, or the work is done with its connection.
        case over
    }

    private struct State {
        var stage = Stage.waiting
        var everLeased = false
        var continuation: CheckedContinuation<LeaseWait<T>, Never>?
        var resumed = false
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())
    private let leaseBy: NIODeadline
    private let deadline: Duration
    private let grace: Duration
    private let logger: Logger

    init(leaseTimeout: Duration, deadline: Duration, grace: Duration, logger: Logger) {
        leaseBy = .now() + TimeAmount(leaseTimeout)
        self.deadline = deadline
        self.grace = grace
        self.logger = logger
    }

    /// Set before the work's task exists, so no answer can come before anyone waits for it.
    func set(_ continuation: CheckedContinuation<LeaseWait<T>, Never>) { state.withLock { $0.continuation = continuation } }

    /// The task running the work, cancelled by ``cancelWork()`` (at once if that came first).
    func set(_ task: Task<Void, Never>) {
        let cancelNow: Bool = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancelWork() {
        let task: Task<Void, Never>? = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// The lease arrived: true unless the request already stopped waiting for it.
    func leased(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard case .waiting = state.stage, !state.resumed else { return false }
            state.stage = .leased(connection, closeBy: .now() + TimeAmount(deadline))
            state.everLeased = true
            return true
        }
    }

    /// The work is done with its connection: the watchdog stands down.
    func released() {
        state.withLock { state in
            if case .leased = state.stage { state.stage = .over }
        }
    }

    /// Whether a connection was ever leased for this work.
    var wasLeased: Bool { state.withLock { $0.everLeased } }

    /// Answers the waiting request, unless something answered it already.
    func resume(_ outcome: LeaseWait<T>) {
        let waiting: CheckedContinuation<LeaseWait<T>, Never>? = state.withLock { state in
            guard !state.resumed else { return nil }
            state.resumed = true
            defer { state.continuation = nil }
            return state.continuation
        }
        waiting?.resume(returning: outcome)
    }

    func check(_ now: NIODeadline) -> Bool {
        var answer: LeaseWait<T>?
        var close: PostgresConnection?
        let done: Bool = state.withLock { state in
            if state.resumed { return true }
            switch state.stage {
            case .waiting where now >= leaseBy:
                state.stage = .over
                answer = .noLease
            case .leased(let connection, let closeBy) where now >= closeBy:
                state.stage = .closed(giveUpBy: now + TimeAmount(grace))
                close = connection
            case .closed(let giveUpBy) where now >= giveUpBy:
                answer = .stuck
            default: break
            }
            return answer != nil
        }
        if let close {
            logger.error("PostgreSQL work ran past \(deadline); closing its connection")
            // The future's type picks `close()` over its `async` twin; nobody waits for it.
            let _: EventLoopFuture<Void> = close.close()
        }
        if let answer { resume(answer) }
        return done
    }
}
