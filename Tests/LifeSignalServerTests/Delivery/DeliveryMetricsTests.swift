import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// `/metrics` shows the delivery ledger by channel and status and the age of the oldest waiting
/// row, read at most once per `deliveryMetricsMaximumAge` whatever the number of scrapes.
@Suite("Delivery metrics")
struct DeliveryMetricsTests {
    static func insert(_ test: TestBackend, status: String, channel: String, createdSecondsAgo: Double) async throws {
        let created = test.clock.now.addingTimeInterval(-createdSecondsAgo)
        try await test.backend.database.query(
            SQL(
                """
                INSERT INTO deliveries (id, notification_id, channel, address, kind, title, body, status, next_attempt_at, created_at, updated_at)
                VALUES ($1, $2, $3, '+15550003003', 'system', 'T', 'B', $4, $5, $5, $5)
                """, bindings: [.uuid(UUID()), .uuid(UUID()), .text(channel), .text(status), .timestamp(created)]))
    }

    static func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test("counts by channel and status and the oldest waiting row; scrapes within the maximum age reuse one read")
    func deliveriesOnMetrics() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        try await Self.insert(test, status: "queued", channel: "sms", createdSecondsAgo: 120)
        try await Self.insert(test, status: "sent", channel: "sms", createdSecondsAgo: 10)
        try await Self.insert(test, status: "failed", channel: "email", createdSecondsAgo: 10)
        let server = try await TestServer.start(test.backend) { $0.deliveryMetricsMaximumAge = .seconds(600) }
        defer { Task { await server.stop() } }

        let first = try await server.scrapeMetrics()
        #expect(first.status == 200)
        #expect(Self.value(#"deliveries{channel="sms",status="queued"}"#, in: first.text) == 1, "\(first.text)")
        #expect(Self.value(#"deliveries{channel="sms",status="sent"}"#, in: first.text) == 1)
        #expect(Self.value(#"deliveries{channel="email",status="failed"}"#, in: first.text) == 1)
        #expect(Self.value(#"deliveries{channel="push",status="queued"}"#, in: first.text) == 0)
        #expect(Self.value("deliveries_oldest_waiting_seconds", in: first.text) == 120)

        // A new row is not counted by a scrape within the maximum age; a server whose counts
        // are never reused (another over the same database) counts it.
        try await Self.insert(test, status: "queued", channel: "sms", createdSecondsAgo: 5)
        let cached = try await server.scrapeMetrics()
        #expect(Self.value(#"deliveries{channel="sms",status="queued"}"#, in: cached.text) == 1)
        let uncached = try await TestServer.start(test.backend) { $0.deliveryMetricsMaximumAge = .zero }
        defer { Task { await uncached.stop() } }
        let fresh = try await uncached.scrapeMetrics()
        #expect(Self.value(#"deliveries{channel="sms",status="queued"}"#, in: fresh.text) == 2)
    }
}
