import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import Prometheus
import Synchronization

/// The server's Prometheus metrics, one registry per server.
///
/// A registry of its own rather than the process-wide `MetricsSystem`, which can be
/// bootstrapped only once per process: tests run many servers side by side, and each must
/// count only its own requests. Routes are labelled by their template (`/rest/v1/{table}`),
/// never the raw path, so ids cannot blow up the number of series.
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    /// Request durations, 1 ms to 10 s.
    static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
        .seconds(2.5), .seconds(10),
    ]
    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "http_requests", unitName: "total",
            helpText: "HTTP requests answered, by method, route template and status.")
    }
    private static var durations: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "http_request_duration", unitName: "seconds",
            helpText: "Time to answer an HTTP request, by method and route template.")
    }
    // Gauges of a count carry no unit suffix (Prometheus naming: `realtime_connections`).
    private static var connections: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "realtime_connections", unitName: "",
            helpText: "Open Realtime WebSocket connections.")
    }
    private static var channels: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "realtime_channels", unitName: "",
            helpText: "Joined Realtime channels.")
    }

    /// The series of each method, route and status, made once: asking the registry builds the
    /// labels and takes its lock on every call, a measurable share of a fast request.
    private let series = RequestSeries()

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) { self.registry = registry }

    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        let (counter, histogram) = series.get(RequestSeries.Key(method: method, route: route, status: status)) { key in
            (
                registry.makeCounter(descriptor: Self.requests, labels: [("method", key.method), ("route", key.route), ("status", String(key.status))]),
                registry.makeDurationHistogram(descriptor: Self.durations, labels: [("method", key.method), ("route", key.route)], buckets: Self.buckets)
            )
        }
        counter.increment()
        histogram.record(duration)
    }

    func setRealtime(connections: Int, channels: Int) {
        registry.makeGauge(descriptor: Self.connections, labels: []).set(Double(connections))
        registry.makeGauge(descriptor: Self.channels, labels: []).set(Double(channels))
    }

    private static var deliveries: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "deliveries", unitName: "",
            helpText: "Rows of the delivery ledger (kept 7 days once finished), by channel and status.")
    }
    private static var oldestWaiting: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "deliveries_oldest_waiting", unitName: "seconds",
            helpText: "Age of the oldest queued or sending row of the delivery ledger; 0 when none waits.")
    }

    private static var held: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "deliveries_held", unitName: "",
            helpText:
                "Messages kept off a paid channel since the server started, by channel and reason (over_budget: incident messages sent past a spent budget).")
    }
    private static var budgetSpent: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "delivery_budget_spent", unitName: "",
            helpText: "Messages counted against the daily budget of a paid channel in its current window.")
    }
    private static var budgetLimit: MetricNameDescriptor {
        MetricNameDescriptor(metricName: "delivery_budget_limit", unitName: "", helpText: "The daily budget of a paid channel.")
    }

    func setDeliveries(_ summary: DeliverySummary, rules: DeliveryRules) {
        setDeliveries(summary)
        for channel in DeliveryChannel.allCases where channel.isPaid {
            registry.makeGauge(descriptor: Self.budgetSpent, labels: [("channel", channel.rawValue)]).set(Double(summary.budgetSpent[channel] ?? 0))
            registry.makeGauge(descriptor: Self.budgetLimit, labels: [("channel", channel.rawValue)]).set(Double(rules.caps.budget(of: channel) ?? 0))
        }
        let held = rules.held.snapshot()
        for channel in DeliveryChannel.allCases where channel.isPaid {
            for reason in HeldMessage.Reason.allCases {
                registry.makeGauge(descriptor: Self.held, labels: [("channel", channel.rawValue), ("reason", reason.rawValue)])
                    .set(Double(held[HeldMessage.Key(channel: channel, reason: reason)] ?? 0))
            }
        }
    }

    func setDeliveries(_ summary: DeliverySummary) {
        for channel in DeliveryChannel.allCases {
            for status in DeliveryStatus.allCases {
                registry.makeGauge(descriptor: Self.deliveries, labels: [("channel", channel.rawValue), ("status", status.rawValue)])
                    .set(Double(summary.counts[channel]?[status] ?? 0))
            }
        }
        registry.makeGauge(descriptor: Self.oldestWaiting, labels: []).set(summary.oldestWaiting ?? 0)
    }

    /// The exposition text (format 0.0.4).
    func render() -> String { registry.emitToString() }
}

/// Counters and histograms by request key. Route templates, methods and statuses are few, so
/// the table stays small.
final class RequestSeries: Sendable {
    struct Key: Hashable {
        var method: String
        var route: String
        var status: Int
    }
    private let made = Mutex<[Key: (Counter, DurationHistogram)]>([:])

    func get(_ key: Key, make: (Key) -> (Counter, DurationHistogram)) -> (Counter, DurationHistogram) {
        made.withLock { made in
            if let existing = made[key] { return existing }
            let new = make(key)
            made[key] = new
            return new
        }
    }
}
