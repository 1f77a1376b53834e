import Prometheus

/// Realtime's counters on `/metrics`: the rows read to deliver changes, and the requests a
/// ``RealtimeLimits`` limit refused (a message over the size limit is refused by the frame
/// decoder, which counts nothing), so an operator sees both the fan-out's cost and clients
/// hitting the bounds.
public final class RealtimeCounters: Sendable {
    /// The limit behind a refusal, as the `limit` label names it.
    enum Limit: String, CaseIterable {
        case channelsPerSocket = "channels_per_socket"
        case bindingsPerJoin = "bindings_per_join"
        case messagesPerSecond = "messages_per_second"
        case socketsPerUser = "sockets_per_user"
        case socketsPerAddress = "sockets_per_address"
    }

    private let rowReads: Counter
    private let refusals: [Limit: Counter]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        rowReads = registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "realtime_row_reads", unitName: "total",
                helpText: "Changed rows read for Realtime subscribers: one read per group of subscribers who see the change alike."))
        let refused = MetricNameDescriptor(
            metricName: "realtime_refusals", unitName: "total",
            helpText: "Realtime joins, messages and sockets refused by a limit, by limit.")
        var refusals: [Limit: Counter] = [:]
        for limit in Limit.allCases { refusals[limit] = registry.makeCounter(descriptor: refused, labels: [("limit", limit.rawValue)]) }
        self.refusals = refusals
    }

    func read() { rowReads.increment() }

    func refused(_ limit: Limit) { refusals[limit]?.increment() }
}
