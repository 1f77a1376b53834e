import LifeSignalDomain
import LifeSignalFunctions
import Logging
import Synchronization
import Testing

@testable import LifeSignalBackend
@testable import LifeSignalPostgres

/// The server's own view of whether PostgreSQL answers (`DatabaseAvailability`), with its
/// check replaced by a scripted one: a unit test of that one type. The outage itself, with a
/// real PostgreSQL stopped and started, is `DatabaseOutageTests`.
@Suite("Database availability: when the database counts as down")
struct DatabaseAvailabilityTests {
    /// A check that answers from a script, then `rest` for good, counting its calls.
    final class ScriptedProbe: Sendable {
        private let answers: Mutex<[Bool]>
        private let rest: Bool
        let calls = Atomic(0)

        init(_ answers: [Bool], then rest: Bool) {
            self.answers = Mutex(answers)
            self.rest = rest
        }

        func check() -> Bool {
            calls.add(1, ordering: .relaxed)
            return answers.withLock { $0.isEmpty ? rest : $0.removeFirst() }
        }
    }

    static func availability(_ probe: ScriptedProbe) -> DatabaseAvailability {
        DatabaseAvailability(
            leaseTimeout: .seconds(1), logger: Logger(label: "test"),
            probe: { _ in probe.check() }, onRecovered: {})
    }

    @Test("one failed check followed by a passing one is not an outage")
    func oneFailureIsNotDown() async {
        let probe = ScriptedProbe([false], then: true)
        let availability = Self.availability(probe)
        #expect(await availability.isReachable())
        #expect(!availability.isDown)
        #expect(probe.calls.load(ordering: .relaxed) == 2)
    }

    @Test("two failed checks in a row mark it down; a passing recheck brings it back")
    func twoFailuresAreDown() async throws {
        let probe = ScriptedProbe([false, false], then: true)
        let availability = Self.availability(probe)
        defer { availability.stop() }
        #expect(await availability.isReachable() == false)
        #expect(availability.isDown)
        // Rechecked every 500 ms; a bound against a hang, not a speed check.
        let deadline = ContinuousClock.now + .seconds(30)
        while availability.isDown, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!availability.isDown)
        #expect(await availability.isReachable())
    }
}
