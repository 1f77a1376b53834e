import Testing

@testable import HTTPTransportCore

/// `withDeadline`, which the pipeline and Supabase Realtime wait through: the first outcome
/// wins, and a result that comes too late is handed over for disposal, never lost.
@Suite struct DeadlineTests {
    struct Late: Error, Equatable {}

    @Test func aResultInTimeIsReturned() async throws {
        let value = try await withDeadline(.seconds(30), timeout: { Late() }) { 42 }
        #expect(value == 42)
    }

    @Test func aLateResultFailsWithTheTimeoutAndIsDiscarded() async throws {
        let discarded = LockedValue<[Int]>([])
        await #expect(throws: Late()) {
            _ = try await withDeadline(
                .milliseconds(50), timeout: { Late() }, discard: { late in discarded.withValue { $0.append(late) } }
            ) {
                // Cancelled at the deadline, the operation still produces a value (as a socket that
                // opens just too late does): it must reach `discard`.
                try? await Task.sleep(for: .seconds(30))
                return 7
            }
        }
        // The late value arrives on the operation's own task; wait for it with a generous bound.
        let started = ContinuousClock.now
        while discarded.value.isEmpty, ContinuousClock.now - started < .seconds(30) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(discarded.value == [7])
    }

    @Test func anErrorInTimeIsThrownAsIs() async throws {
        struct Refused: Error, Equatable {}
        await #expect(throws: Refused()) {
            _ = try await withDeadline(.seconds(30), timeout: { Late() }) { () async throws -> Int in throw Refused() }
        }
    }
}
