import Foundation
import Synchronization

/// What this server last learned about sessions, so that checking the session of every
/// `/auth/v1/user`, function call and Realtime heartbeat is not a database read each time.
///
/// A session seen active is trusted for ``AuthPolicy/sessionCheckStaleness``; a session seen
/// ended stays ended (ids are random and never reused, and a session never comes back).
/// Ending sessions through this server clears what it believed active at once, so only another
/// server on the same PostgreSQL can be late, and by at most the staleness bound.
final class SessionCache: Sendable {
    /// Past this many entries a map is emptied rather than grown: it is only a shortcut.
    static let capacity = 100_000

    private struct Known {
        var active: [UUID: (user: UUID, seenAt: ContinuousClock.Instant)] = [:]
        var ended: Set<UUID> = []
    }

    private let known = Mutex(Known())
    private let staleness: Duration

    init(staleness: TimeInterval) {
        self.staleness = .milliseconds(Int64((staleness * 1000).rounded()))
    }

    /// `true`/`false` when known (active for `user`, or ended), `nil` when it must be read.
    func lookup(_ session: UUID, user: UUID) -> Bool? {
        known.withLock { known in
            if known.ended.contains(session) { return false }
            guard let entry = known.active[session], ContinuousClock.now - entry.seenAt < staleness else { return nil }
            return entry.user == user
        }
    }

    func remember(_ session: UUID, user: UUID?) {
        known.withLock { known in
            if let user {
                if known.active.count >= Self.capacity { known.active.removeAll(keepingCapacity: true) }
                known.active[session] = (user, ContinuousClock.now)
            } else {
                if known.ended.count >= Self.capacity { known.ended.removeAll(keepingCapacity: true) }
                known.active[session] = nil
                known.ended.insert(session)
            }
        }
    }

    /// Forgets every session believed active: called whenever this server ends sessions, so
    /// the next check of any of them reads the database.
    func forgetActive() {
        known.withLock { $0.active.removeAll(keepingCapacity: true) }
    }
}
