import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

@testable import LifeSignalBackendPostgres

/// The deadlines of a lease on a real PostgreSQL, all kept by the database's one
/// ``LeaseClock``: no connection within the lease timeout, and work past the statement
/// deadline (the watchdog closes its connection). Each is acted on within a tick of it.
@Suite("PostgreSQL lease deadlines")
struct PostgresLeaseDeadlineTests {
    @Test("with every connection busy, a request is answered unavailable at the lease timeout, and the clock stops once nothing waits")
    func leaseTimeout() async throws {
        let database = try #require(try await TestDatabases.make(.postgres) as? PostgresDatabase)
        database.unavailableAfter = .seconds(1)
        // The main pool's four connections, each held until `release`.
        let inside = AsyncStream<Void>.makeStream()
        let gate = Gate()
        let holders = (0..<4).map { _ in
            Task {
                try await database.transaction { connection in
                    _ = try await connection.query("SELECT 1")
                    inside.continuation.yield()
                    await gate.wait()
                }
            }
        }
        var entered = inside.stream.makeAsyncIterator()
        for _ in 0..<4 { _ = await entered.next() }

        let started = ContinuousClock.now
        await #expect {
            try await database.transaction { try await $0.query("SELECT 1") }
        } throws: { error in
            (error as? DatabaseError)?.isUnavailable == true
        }
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(950), "answered after \(waited), before the lease timeout")
        #expect(waited < .seconds(1) + .milliseconds(900), "answered after \(waited)")

        await gate.open()
        for holder in holders { try await holder.value }
        // The late lease of the refused request went back to the pool: every connection serves.
        let rows = try await database.transaction { try await $0.query("SELECT 2 AS n") }
        #expect(try rows.first?.int("n") == 2)
        try await waitUntil { !database.leaseClock.isTicking && database.leaseClock.count == 0 }
    }

    @Test("work past the statement deadline has its connection closed and is answered unavailable; the pool serves on")
    func statementDeadline() async throws {
        let database = try #require(try await TestDatabases.make(.postgres) as? PostgresDatabase)
        let started = ContinuousClock.now
        await #expect {
            try await DatabasePatience.$statementDeadline.withValue(.seconds(1)) {
                try await database.transaction { try await $0.query("SELECT pg_sleep(30)") }
            }
        } throws: { error in
            (error as? DatabaseError)?.isUnavailable == true
        }
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(950), "answered after \(waited), before the deadline")
        // postgres-nio can leave the statement pending after the close: the grace bounds the wait.
        #expect(waited < .seconds(1) + PostgresDatabase.abandonGrace + .seconds(1), "answered after \(waited)")
        let rows = try await retrying { try await database.transaction { try await $0.query("SELECT 3 AS n") } }
        #expect(try rows.first?.int("n") == 3)
        try await waitUntil { !database.leaseClock.isTicking }
    }

    @Test("a quick read leaves nothing on the clock")
    func quickReadForgotten() async throws {
        let database = try #require(try await TestDatabases.make(.postgres) as? PostgresDatabase)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { _ = try await database.transaction { try await $0.query("SELECT 1") } } }
            try await group.waitForAll()
        }
        #expect(database.leaseClock.count == 0)
        try await waitUntil { !database.leaseClock.isTicking }
    }

    /// Polls `condition` for up to 5 s (a tick is 100 ms).
    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<100 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
        #expect(condition())
    }

    /// A failed availability check can leave the database refusing for a moment after the
    /// close; the pool must serve again shortly.
    private func retrying<T>(_ body: () async throws -> T) async throws -> T {
        for _ in 0..<50 {
            if let value = try? await body() { return value }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await body()
    }
}

/// Holds every waiter until opened.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}
