import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `GET /metrics`: Prometheus text, no API key, routes labelled by template.
@Suite("/metrics")
struct MetricsTests {
    @Test("requests are counted by method, route template and status; realtime sockets are a gauge", arguments: Engine.allCases)
    func counts(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        for _ in 0..<3 { _ = try await server.request("GET", "/rest/v1/locations?select=id") }
        _ = try await server.request("GET", "/rest/v1/nope")
        _ = try await server.request("GET", "/no/such/path/3f2a9c")
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        try socket.send(topic: "phoenix", event: "heartbeat", ref: "1")
        _ = try await socket.nextObject()

        let scrape = try await server.request("GET", "/metrics", apiKey: .some(nil))
        #expect(scrape.status == 200)
        #expect(scrape.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        let text = scrape.text
        #expect(text.contains(#"http_requests_total{method="GET",route="/rest/v1/{table}",status="200"} 3"#), "\(text)")
        #expect(text.contains(#"http_requests_total{method="GET",route="/rest/v1/{table}",status="404"} 1"#))
        #expect(text.contains(#"http_request_duration_seconds_count{method="GET",route="/rest/v1/{table}"} 4"#))
        #expect(text.contains("# TYPE realtime_connections gauge"))
        #expect(text.contains("\nrealtime_connections 1"))
        #expect(text.contains("# TYPE http_requests_total counter"))
        #expect(!text.contains("locations"), "raw paths must not become labels")
        #expect(text.contains(#"http_requests_total{method="GET",route="unmatched",status="404"} 1"#))
        #expect(!text.contains("3f2a9c"), "an unmatched path must not become a label either")
        await socket.close()
    }
}
