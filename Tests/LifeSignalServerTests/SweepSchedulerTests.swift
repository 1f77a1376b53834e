import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The sweep timer goes on whatever one run does: a run that cannot finish is cancelled at its
/// timeout and the next one starts, and `/metrics` says so.
@Suite("sweep timer")
struct SweepSchedulerTests {
    @Test("a run stuck behind a held SQLite writer times out; once the writer is free, runs succeed again")
    func stuckRunIsLeftBehind() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend) {
            $0.sweepInterval = .milliseconds(100)
            $0.sweepTimeout = .milliseconds(500)
        }
        defer { Task { await server.stop() } }
        // Wait for a first good run, so the counts below are the writer's doing.
        try await waitFor(server, "succeeded", atLeast: 1)
        let held = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await test.backend.database.transaction { _ in
                held.continuation.yield()
                try await Task.sleep(for: .seconds(3))
            }
        }
        var waiting = held.stream.makeAsyncIterator()
        _ = await waiting.next()
        try await waitFor(server, "timed_out", atLeast: 1)
        try await holder.value
        let before = try await count(server, "succeeded")
        try await waitFor(server, "succeeded", atLeast: before + 2)
    }

    @Test("TimeLimit answers at its bound while the task is still running, and cancels it")
    func timeLimit() async throws {
        let started = ContinuousClock.now
        let cancelled = AsyncStream<Void>.makeStream()
        let stuck = Task<Int, any Error> {
            await withTaskCancellationHandler {
                // Ignores cancellation for a while, like a statement the database never answers.
                try? await Task.sleep(for: .seconds(30))
            } onCancel: {
                cancelled.continuation.yield()
            }
            return 1
        }
        let outcome = await TimeLimit.result(of: stuck, within: .milliseconds(200))
        #expect(outcome == nil)
        #expect(started.duration(to: .now) < .seconds(20))
        var signal = cancelled.stream.makeAsyncIterator()
        _ = await signal.next()
        let quick = Task<Int, any Error> { 7 }
        let value = try #require(await TimeLimit.result(of: quick, within: .seconds(30)))
        #expect(try value.get() == 7)
    }

    private func count(_ server: TestServer, _ outcome: String) async throws -> Int {
        let text = try await server.scrapeMetrics().text
        let prefix = "sweep_runs_total{outcome=\"\(outcome)\"} "
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return 0 }
        return Int(Double(line.dropFirst(prefix.count)) ?? 0)
    }

    /// Polls `/metrics` (a 120 s bound against a hang, not a speed check).
    private func waitFor(_ server: TestServer, _ outcome: String, atLeast wanted: Int) async throws {
        var seen = 0
        for _ in 0..<1_200 {
            seen = try await count(server, outcome)
            if seen >= wanted { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("sweep_runs_total{outcome=\"\(outcome)\"} stayed at \(seen), wanted \(wanted)")
    }
}
