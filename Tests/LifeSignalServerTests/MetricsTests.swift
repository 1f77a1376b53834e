import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `GET /metrics`: Prometheus text, no API key, routes labelled by template; only for the
/// operator — on a listener of its own, or on the public port with the operator's token.
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

        let scrape = try await server.scrapeMetrics()
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

    @Test("the public port hides /metrics: 404 with no token set, 401 without the token; a listener of its own serves it", arguments: Engine.allCases)
    func onlyForTheOperator(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let listening = PortBox()
        let server = try await TestServer.start(test.backend) {
            $0.metricsToken = nil
            $0.metricsListener = MetricsListener(host: "127.0.0.1", port: 0)
            $0.onMetricsListening = { port in await listening.set(port) }
        }
        defer { Task { await server.stop() } }
        let hidden = try await server.request("GET", "/metrics", apiKey: .some(nil))
        #expect(hidden.status == 404)
        #expect(!hidden.text.contains("http_requests_total"))
        let withKey = try await server.request("GET", "/metrics")
        #expect(withKey.status == 404, "an API key opens nothing here")
        let port = try await listening.wait()
        #expect(port != server.port)
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/metrics")))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("http_requests_total"), "\(text)")
        #expect(text.contains(#"delivery_budget_limit{channel="sms"} 2000"#), "\(text)")
        let (_, other) = try await URLSession.shared.data(from: try #require(URL(string: "http://127.0.0.1:\(port)/rest/v1/locations")))
        #expect((other as? HTTPURLResponse)?.statusCode == 404, "the metrics listener serves nothing else")

        let guarded = try await TestServer.start(test.backend)
        defer { Task { await guarded.stop() } }
        #expect(try await guarded.request("GET", "/metrics", apiKey: .some(nil)).status == 401)
        #expect(try await guarded.request("GET", "/metrics", apiKey: .some(nil), bearer: "test-metrics-tokem").status == 401)
        #expect(try await guarded.request("GET", "/metrics", bearer: server.serviceKey).status == 401, "the service role is not the operator's token")
        #expect(try await guarded.scrapeMetrics().status == 200)
    }
}

/// The port a listener reports once it is bound.
actor PortBox {
    private var port: Int?

    func set(_ value: Int) { port = value }

    /// Waits for the port (a 60 s bound against a hang, not a speed check).
    func wait() async throws -> Int {
        for _ in 0..<600 {
            if let port { return port }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw CancellationError()
    }
}
