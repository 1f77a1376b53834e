import Dispatch
import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Synchronization

/// Runs password hashing on threads of its own, a bounded number at a time.
///
/// PBKDF2 takes tens of milliseconds of CPU. Run on Swift's cooperative pool (one thread per
/// core) a handful of parallel sign-ins would hold every thread and stall every other request,
/// the sweep included. Here the work runs on a dispatch queue outside that pool, at most
/// ``maximumInFlight`` at once; up to ``maximumWaiting`` more wait their turn in order, and
/// past that a request is refused at once with ``DomainError/rateLimited(retryAfter:)``
/// rather than piling up.
public final class PasswordHashingPool: Sendable {
    /// How busy the pool has been, for tests and diagnostics.
    public struct Statistics: Sendable, Equatable {
        /// Hashes running on the pool's threads now (counted around the work itself).
        public var inFlight = 0
        /// The most that ever ran at once.
        public var peakInFlight = 0
        /// Hashes finished.
        public var completed = 0
        /// Requests that had to wait for a turn.
        public var waited = 0
        /// Requests refused because the waiting line was full.
        public var refused = 0
    }

    /// What a refused request is told: a hash finishes in well under a second.
    public static let retryAfter: TimeInterval = 1

    public let maximumInFlight: Int
    public let maximumWaiting: Int
    private let queue = DispatchQueue(label: "lifesignal.password-hashing", qos: .userInitiated, attributes: .concurrent)
    private struct State {
        var stats = Statistics()
        /// Turns taken: hashes running or about to run. Bounded by ``maximumInFlight``.
        var turns = 0
        var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var nextWaiterID: UInt64 = 0
    }

    // A lock rather than an actor: admission must be decided synchronously, before the caller
    // suspends, so the waiting line never grows past its bound.
    private let state = Mutex(State())

    public init(maximumInFlight: Int, maximumWaiting: Int) {
        self.maximumInFlight = max(1, maximumInFlight)
        self.maximumWaiting = max(0, maximumWaiting)
    }

    public var statistics: Statistics { state.withLock { state in state.stats } }

    /// Runs `work` on the pool's threads once a turn is free and returns its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return await withCheckedContinuation { continuation in
            queue.async {
                self.state.withLock { state in
                    state.stats.inFlight += 1
                    state.stats.peakInFlight = max(state.stats.peakInFlight, state.stats.inFlight)
                }
                let result = work()
                self.state.withLock { state in
                    state.stats.inFlight -= 1
                    state.stats.completed += 1
                }
                continuation.resume(returning: result)
            }
        }
    }

    /// Takes a turn, waiting in line for one when all are taken; throws when the line is full
    /// or the waiting task is cancelled.
    private func acquire() async throws {
        enum Admission {
            case now
            case wait(UInt64)
            case refused
        }
        let admission: Admission = state.withLock { state in
            if state.turns < maximumInFlight {
                state.turns += 1
                return .now
            }
            guard state.waiters.count < maximumWaiting else {
                state.stats.refused += 1
                return .refused
            }
            state.nextWaiterID += 1
            state.stats.waited += 1
            return .wait(state.nextWaiterID)
        }
        switch admission {
        case .now: return
        case .refused: throw DomainError.rateLimited(retryAfter: Self.retryAfter)
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    let cancelled: Bool = state.withLock { state in
                        if Task.isCancelled { return true }
                        state.waiters.append((id, continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                }
            } onCancel: {
                let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiters.remove(at: index).continuation
                }
                waiter?.resume(throwing: CancellationError())
            }
        }
    }

    /// Hands the turn to the first waiter, or frees it. The turn passes directly, so a newcomer
    /// cannot overtake the line between two hashes.
    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.turns -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }
}
