import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Every answer within a bound, wherever a wait hides: a request whose statement waits on a
/// lock nobody releases in time is answered 503 by the connection itself.
@Suite("answer deadline")
struct AnswerTimeoutTests {
    @Test("a write stuck behind a table lock gets 503 with Retry-After at the answer deadline; /health is served meanwhile")
    func stuckWrite() async throws {
        let test = try await TestDatabases.backend(.postgres)
        let server = try await TestServer.start(test.backend) { $0.connectionLimits.answerTimeout = .seconds(2) }
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550009001")
        let locked = AsyncStream<Void>.makeStream()
        // Holds an exclusive lock on `locations` for 8 s, in a transaction of its own.
        let holder = Task {
            try await test.backend.database.transaction { connection in
                _ = try await connection.query("LOCK TABLE locations IN ACCESS EXCLUSIVE MODE")
                locked.continuation.yield()
                try await Task.sleep(for: .seconds(8))
            }
        }
        var waiting = locked.stream.makeAsyncIterator()
        _ = await waiting.next()
        let started = ContinuousClock.now
        let stuck = try await server.json(
            "POST", "/rest/v1/locations", bearer: alice.accessToken,
            ["name": "late", "slug": "late", "created_by": alice.user.id.description])
        let waited = started.duration(to: .now)
        #expect(stuck.status == 503, "\(stuck.status) \(stuck.text)")
        #expect(stuck.header("retry-after") == "1")
        #expect(waited < .seconds(7), "answered after \(waited), before the lock was released")
        #expect(try await server.request("GET", "/health").status == 200)
        try await holder.value
    }
}
