import LifeSignalBackend
import Logging
import ServiceLifecycle

/// Runs the missed-check-in sweep (`process-check-ins`) on a timer inside the server, so
/// reminders and escalations go out without an outside scheduler. Several servers on one
/// PostgreSQL may all run it: the sweep claims rows with `SKIP LOCKED` and marks each deadline,
/// so every reminder and escalation still goes out once.
struct SweepScheduler: Service {
    let backend: LifeSignalBackend
    let interval: Duration
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do { try await Task.sleep(for: interval) } catch { return }
                do {
                    let report = try await backend.sweep.run(caller: .service)
                    if report.reminders + report.escalations + report.resumed > 0 {
                        logger.info("sweep: \(report.reminders) reminders, \(report.escalations) escalations, \(report.resumed) all-clears")
                    }
                } catch {
                    // A failed sweep is retried on the next tick; the deadline markers make
                    // the retry safe.
                    logger.error("sweep failed: \(error)")
                }
            }
        }
    }
}
