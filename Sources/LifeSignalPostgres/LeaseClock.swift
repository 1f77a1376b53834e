import Foundation
import NIOCore
import Synchronization

/// Something with deadlines that ``LeaseClock`` checks on each of its ticks.
protocol LeaseDeadlines: AnyObject, Sendable {
    /// Acts on every deadline `now` has passed; `true` once there is nothing left to watch.
    func check(_ now: NIODeadline) -> Bool
}

/// One timer for the deadlines of every lease of a ``PostgresDatabase``: the wait for a
/// connection, the statement deadline and the final give-up (``LeaseWaiter``).
///
/// A timer of their own per lease — three scheduled tasks, each with its promise, set and
/// then cancelled on nearly every read — was about a quarter of a read's allocations
/// (`docs/performance.md`). These deadlines are seconds long and only ever passed when
/// something has gone wrong, so checking them every ``tick`` is precise enough: a watched
/// deadline is acted on at most one tick late. The clock ticks only while something is
/// watched.
final class LeaseClock: Sendable {
    static let tick = TimeAmount.milliseconds(100)

    private let loop: any EventLoop

    private struct State {
        var watched: [ObjectIdentifier: any LeaseDeadlines] = [:]
        var ticking = false
    }

    private let state = Mutex(State())

    init(loop: any EventLoop) { self.loop = loop }

    /// Checks `item`'s deadlines from the next tick on, until ``forget(_:)`` or its `check`
    /// says it is done.
    func watch(_ item: any LeaseDeadlines) {
        let start: Bool = state.withLock { state in
            state.watched[ObjectIdentifier(item)] = item
            if state.ticking { return false }
            state.ticking = true
            return true
        }
        if start { scheduleTick() }
    }

    func forget(_ item: any LeaseDeadlines) {
        state.withLock { state in _ = state.watched.removeValue(forKey: ObjectIdentifier(item)) }
    }

    /// Whether the clock's timer is set (for tests: it must stop once nothing is watched).
    var isTicking: Bool { state.withLock { state in state.ticking } }

    /// How many items are watched (for tests).
    var count: Int { state.withLock { state in state.watched.count } }

    private func scheduleTick() {
        loop.scheduleTask(in: Self.tick) { [weak self] in self?.checkAll() }
    }

    private func checkAll() {
        let items = state.withLock { state in Array(state.watched.values) }
        let now = NIODeadline.now()
        // Outside the lock: a check resumes a waiting request or closes a connection.
        let done = items.filter { $0.check(now) }
        let again: Bool = state.withLock { state in
            // The very item, not another one forgotten and watched again at the same address.
            for item in done where state.watched[ObjectIdentifier(item)] === item { state.watched.removeValue(forKey: ObjectIdentifier(item)) }
            state.ticking = !state.watched.isEmpty
            return state.ticking
        }
        if again { scheduleTick() }
    }
}
