import Foundation
import LifeSignalBackend
import LifeSignalFunctions
import Logging
import ServiceLifecycle
import Synchronization

/// Runs the missed-check-in sweep (`process-check-ins`) on a timer inside the server, so
/// reminders and escalations go out without an outside scheduler. Several servers on one
/// PostgreSQL may all run it: the sweep claims rows with `SKIP LOCKED` and marks each deadline,
/// so every reminder and escalation still goes out once.
///
/// A run that fails is retried on the next tick. A run that does not end within
/// ``tickTimeout`` (a statement stuck on a connection whose peer vanished without a word) is
/// cancelled and left behind, so one stuck run cannot stop every later one; at most
/// ``maximumAbandoned`` are left behind at once, after which the timer waits for one of them
/// to end rather than pile up stuck work.
struct SweepScheduler: Service {
    let backend: LifeSignalBackend
    let interval: Duration
    let tickTimeout: Duration
    let monitor: SweepMonitor
    let logger: Logger

    static let maximumAbandoned = 2

    func run() async throws {
        let abandoned = AbandonedRuns()
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                if abandoned.count >= Self.maximumAbandoned {
                    logger.error("sweep: \(abandoned.count) runs are still stuck; waiting for one to end before the next")
                    do { try await abandoned.waitForFewerThan(Self.maximumAbandoned) } catch { return }
                }
                await tick(abandoned: abandoned)
            }
        }
    }

    private func tick(abandoned: AbandonedRuns) async {
        let backend = self.backend
        let timeout = tickTimeout
        let run = Task {
            try await DatabasePatience.$statementDeadline.withValue(timeout) { try await backend.sweep.run(caller: .service) }
        }
        switch await TimeLimit.result(of: run, within: tickTimeout) {
        case .success(let report)?:
            monitor.record(.succeeded)
            if report.reminders + report.escalations + report.resumed > 0 {
                logger.info("sweep: \(report.reminders) reminders, \(report.escalations) escalations, \(report.resumed) all-clears")
            }
        case .failure(let error)?:
            // The deadline markers make the retry on the next tick safe.
            monitor.record(.failed, error: "\(error)")
            logger.error("sweep failed: \(error)")
        case nil:
            abandoned.add(run)
            monitor.record(.timedOut, error: "no end within \(tickTimeout)")
            logger.error("sweep: a run took longer than \(tickTimeout); cancelled it and going on")
        }
    }
}

/// Sweep runs cancelled after their timeout that have not ended yet.
private final class AbandonedRuns: Sendable {
    private let running = Mutex(0)

    var count: Int { running.withLock { $0 } }

    func add(_ run: Task<SweepReport, any Error>) {
        running.withLock { running in running += 1 }
        Task {
            _ = await run.result
            self.running.withLock { running in running -= 1 }
        }
    }

    func waitForFewerThan(_ limit: Int) async throws {
        while count >= limit { try await Task.sleep(for: .milliseconds(100)) }
    }
}
