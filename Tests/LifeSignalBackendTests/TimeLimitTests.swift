import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import Testing

/// `TimeLimit.wait`: a bounded wait that leaves the work running (the after-commit sends).
@Suite("TimeLimit")
struct TimeLimitTests {
    @Test("a task that ends in time is waited for; one that does not is left running, not cancelled")
    func waitLeavesTheTaskRunning() async throws {
        let quick = Task { 42 }
        #expect(await TimeLimit.wait(for: quick, atMost: .seconds(60)))

        let slow = Task { () -> Bool in
            try? await Task.sleep(for: .seconds(1))
            return Task.isCancelled
        }
        #expect(await TimeLimit.wait(for: slow, atMost: .milliseconds(10)) == false)
        #expect(await slow.value == false, "the task went on uncancelled after the wait gave up")
    }
}
