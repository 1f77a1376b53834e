import Foundation
import LifeSignalBackend
import Logging
import ServiceLifecycle

/// Sends what the delivery ledger has due: retries after passing failures, rows a dead or
/// stopped server had claimed (once their lease ends), and rows another server queued but
/// could not send. What a rule queues is sent by the rule itself right after its commit; this
/// worker is what makes the ledger durable. Several servers over one PostgreSQL each run one:
/// claims skip each other's rows.
struct DeliveryWorker: Service {
    let backend: LifeSignalBackend
    let interval: Duration
    let logger: Logger

    /// Rows claimed at once; a full batch is followed by another at once.
    static let batch = 200
    /// Finished rows past retention are deleted about this often.
    static let pruneEvery: Duration = .seconds(600)

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var lastPrune = ContinuousClock.now
            while !Task.isCancelled {
                while !Task.isCancelled, await backend.deliveries.sendDue(limit: Self.batch) == Self.batch {}
                if ContinuousClock.now - lastPrune >= Self.pruneEvery {
                    lastPrune = ContinuousClock.now
                    do { try await backend.deliveries.prune() } catch { logger.warning("pruning the delivery ledger failed: \(error)") }
                }
                do { try await Task.sleep(for: interval) } catch { return }
            }
        }
    }
}
