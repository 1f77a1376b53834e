import Foundation

/// What this server last learned about sessions, so that checking the session of every
/// `/auth/v1/user`, function call and Realtime heartbeat is not a database read each time.
///
/// A session seen active is trusted for ``AuthPolicy/sessionCheckStaleness``; a session seen
/// ended stays ended (ids are random and never reused, and a session never comes back).
/// Ending sessions through this server clears what it believed active at once, so only another
/// server on the same PostgreSQL can be late, and by at most the staleness bound.
final class SessionCache: @unchecked Sendable {
    /// Past this many entries a map is emptied rather than grown: it is only a shortcut.
    static let capacity = 100_000

    private let lock = NSLock()
    private let staleness: Duration
    private var active: [UUID: (user: UUID, seenAt: ContinuousClock.Instant)] = [:]
    private var ended: Set<UUID> = []

    init(staleness: TimeInterval) {
        self.staleness = .milliseconds(Int64((staleness * 1000).rounded()))
    }

    /// `true`/`false` when known (active for `user`, or ended), `nil` when it must be read.
    func lookup(_ session: UUID, user: UUID) -> Bool? {
        lock.withLock {
            if ended.contains(session) { return false }
            guard let entry = active[session], ContinuousClock.now - entry.seenAt < staleness else { return nil }
            return entry.user == user
        }
    }

    func remember(_ session: UUID, user: UUID?) {
        lock.withLock {
            if let user {
                if active.count >= Self.capacity { active.removeAll(keepingCapacity: true) }
                active[session] = (user, ContinuousClock.now)
            } else {
                if ended.count >= Self.capacity { ended.removeAll(keepingCapacity: true) }
                active[session] = nil
                ended.insert(session)
            }
        }
    }

    /// Forgets every session believed active: called whenever this server ends sessions, so
    /// the next check of any of them reads the database.
    func forgetActive() {
        lock.withLock { active.removeAll(keepingCapacity: true) }
    }
}
