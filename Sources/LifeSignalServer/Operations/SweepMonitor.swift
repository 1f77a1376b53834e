import Foundation
import Prometheus
import Synchronization

/// What the sweep timer has done, on `/metrics`: runs by outcome and the time of the last
/// good one. A sweep that stopped running is the one failure a safety system must not hide
/// (nobody hears of a missed deadline), so an operator can alert on
/// `time() - sweep_last_success_timestamp_seconds`.
public final class SweepMonitor: Sendable {
    /// How a run ended, as the `outcome` label names it.
    enum Outcome: String, CaseIterable {
        case succeeded
        case failed
        /// The run took longer than ``SweepScheduler/tickTimeout`` and was abandoned.
        case timedOut = "timed_out"
    }

    private let runs: [Outcome: Counter]
    private let lastSuccess: Gauge
    private let state = LockedState()

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        let runs = MetricNameDescriptor(
            metricName: "sweep_runs", unitName: "total",
            helpText: "Missed-check-in sweeps run by the server's timer, by outcome.")
        var counters: [Outcome: Counter] = [:]
        for outcome in Outcome.allCases { counters[outcome] = registry.makeCounter(descriptor: runs, labels: [("outcome", outcome.rawValue)]) }
        self.runs = counters
        lastSuccess = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "sweep_last_success_timestamp", unitName: "seconds",
                helpText: "When the last sweep that ran to its end finished, in seconds since 1970."))
    }

    func record(_ outcome: Outcome, at date: Date = Date(), error: String? = nil) {
        runs[outcome]?.increment()
        if outcome == .succeeded { lastSuccess.set(date.timeIntervalSince1970) }
        state.update(outcome, at: date, error: error)
    }

    /// The runs so far and how the newest ended, for tests and logs.
    public var snapshot: Snapshot { state.snapshot }

    public struct Snapshot: Sendable, CustomStringConvertible {
        public var succeeded = 0
        public var failed = 0
        public var timedOut = 0
        public var lastSuccess: Date?
        public var lastError: String?

        public var description: String {
            "sweep runs: \(succeeded) succeeded, \(failed) failed, \(timedOut) timed out; last success \(lastSuccess.map { "\($0)" } ?? "never")"
                + (lastError.map { "; last error: \($0)" } ?? "")
        }
    }

    private final class LockedState: Sendable {
        private let value = Mutex(Snapshot())

        var snapshot: Snapshot { value.withLock { $0 } }

        func update(_ outcome: Outcome, at date: Date, error: String?) {
            value.withLock { value in
                switch outcome {
                case .succeeded:
                    value.succeeded += 1
                    value.lastSuccess = date
                case .failed: value.failed += 1
                case .timedOut: value.timedOut += 1
                }
                if let error { value.lastError = error }
            }
        }
    }
}
