import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

@testable import LifeSignalPostgres

/// The deadlines of a lease on a real PostgreSQL, all kept by the database's one
/// ``LeaseClock``: no connection within the lease timeout, and work past the statement
/// deadline (the watchdog closes its connection). Each is acted on within a tick of it.
@Suite("PostgreSQL lease deadlines")
struct PostgresLeaseDeadlineTests {
    @Test("with every connection busy, a request is answered unavailable at the lease timeout, and the clock stops once nothing waits")
    func leaseTimeout() async throws {
        let database = try #require(try await TestDatabases.make(.postgres) as? PostgresDatabase)
        // The main pool's four connections, each held until the gate opens. Each holder says
        // whether it got in (under the whole suite a lease can fail: it must not hang the test).
        let inside = AsyncStream<Bool>.makeStream()
        let gate = Gate()
        let holders = (0..<4).map { _ in
            Task {
                do {
                    try await database.transaction { connection in
                        _ = try await connection.query("SELECT 1")
                        inside.continuation.yield(true)
                        await gate.wait()
                    }
                } catch {
                    inside.continuation.yield(false)
                    throw error
                }
            }
        }
        var entered = inside.stream.makeAsyncIterator()
        var held = 0
        for _ in 0..<4 {
            if await entered.next() == true { held += 1 }
        }
        guard held == 4 else {
            await gate.open()
            Issue.record("only \(held) of the pool's 4 connections could be held")
            return
        }
        // Set only now: the holders waited with the tests' patient default.
        database.unavailableAfter = .seconds(1)
        let started = ContinuousClock.now
        await #expect {
            try await database.transaction { try await $0.query("SELECT 1") }
        } throws: { error in
            (error as? DatabaseError)?.isUnavailable == true
        }
        let waited = started.duration(to: .now)
        #expect(waited >= .milliseconds(950), "answered after \(waited), before the lease timeout")
        // A bound, not a speed check: the tests' lease wait is 60 s.
        #expect(waited < .seconds(10), "answered after \(waited)")

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
        // postgres-nio can leave the statement pending after the close: the grace (2 s) bounds
        // the wait, not the lease timeout too (60 s in the tests). A bound, not a speed check.
        #expect(waited < .seconds(1) + PostgresDatabase.abandonGrace + .seconds(10), "answered after \(waited)")
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
