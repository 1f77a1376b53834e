import Dispatch
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import Testing

/// The pool every password hash runs on: a bounded number at once, a bounded line, and a
/// refusal (never an unbounded pile) past that.
@Suite("Password hashing pool")
struct PasswordHashingPoolTests {
    /// Polls `condition` until it holds; a bound of 10 s against a hang, not a speed check.
    static func eventually(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test("one runs, one waits in line, the next is refused at once; the one in line runs when a turn frees")
    func boundedLine() async throws {
        let pool = PasswordHashingPool(maximumInFlight: 1, maximumWaiting: 1)
        let gate = DispatchSemaphore(value: 0)
        let first = Task {
            try await pool.run {
                gate.wait()
                return 1
            }
        }
        try await Self.eventually { pool.statistics.inFlight == 1 }
        let second = Task { try await pool.run { 2 } }
        try await Self.eventually { pool.statistics.waited == 1 }

        await #expect(throws: DomainError.rateLimited(retryAfter: PasswordHashingPool.retryAfter)) { try await pool.run { 3 } }
        #expect(pool.statistics.refused == 1)
        #expect(pool.statistics.completed == 0, "the second waits while the first holds the only turn")

        gate.signal()
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
        let stats = pool.statistics
        #expect(stats.completed == 2 && stats.peakInFlight == 1 && stats.inFlight == 0)
        #expect(try await pool.run { 4 } == 4, "the turn was freed")
    }

    @Test("a request cancelled while it waits leaves the line and takes no turn")
    func cancelledWaiter() async throws {
        let pool = PasswordHashingPool(maximumInFlight: 1, maximumWaiting: 1)
        let gate = DispatchSemaphore(value: 0)
        let first = Task {
            try await pool.run {
                gate.wait()
                return 1
            }
        }
        try await Self.eventually { pool.statistics.inFlight == 1 }
        let waiting = Task { try await pool.run { 2 } }
        try await Self.eventually { pool.statistics.waited == 1 }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        // Its place in line is free again: another may wait there.
        let third = Task { try await pool.run { 3 } }
        try await Self.eventually { pool.statistics.waited == 2 }
        gate.signal()
        #expect(try await first.value == 1)
        #expect(try await third.value == 3)
        #expect(pool.statistics.completed == 2)
    }

    @Test("forty hashes at once never run more than the bound together, and all finish")
    func concurrencyBound() async throws {
        let pool = PasswordHashingPool(maximumInFlight: 2, maximumWaiting: 64)
        let hasher = PasswordHasher(iterations: 20_000)
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<40 {
                group.addTask { try await pool.run { hasher.verify("p\(index)", against: hasher.hash("p\(index)")) } }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 40 && results.allSatisfy { $0 })
        let stats = pool.statistics
        #expect(stats.peakInFlight <= 2 && stats.peakInFlight >= 1)
        #expect(stats.completed == 40 && stats.refused == 0 && stats.inFlight == 0)
    }
}
