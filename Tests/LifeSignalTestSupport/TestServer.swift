import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import Logging
import UnixSignals

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `lifesignal` server on 127.0.0.1 and a port the system picks, for tests that must
/// cross a socket.
public final class TestServer: Sendable {
    public let port: Int
    public let backend: LifeSignalBackend
    public let anonKey: String
    public let serviceKey: String
    private let task: Task<Void, any Error>

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `logger` replaces the default warning-level one (a test that inspects the logs passes its own);
    /// `configure` changes the server's configuration (limits, timeouts) before it starts.
    public static func start(
        _ backend: LifeSignalBackend, bodyLimit: Int = 1 << 20, reloadSignal: UnixSignal? = nil,
        logger: Logger? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let logger =
            logger
            ?? {
                var logger = Logger(label: "lifesignal.test-server")
                logger.logLevel = .warning
                return logger
            }()
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, bodyLimit: bodyLimit, sweepInterval: nil)
        // Like the sweep, the delivery ledger's worker is driven by hand (`sendDue`): hundreds of
        // test servers polling their databases each second would load the parallel suite.
        configuration.deliveryInterval = nil
        configuration.reloadSignal = reloadSignal
        configuration.metricsToken = Self.metricsToken
        // Every test talks from 127.0.0.1, many anonymously and fast: the anonymous limit per
        // address is out of the way unless a test sets it (`ClientAddressLimitTests`).
        configuration.clientLimits.anonymousPerMinute = 1_000_000
        configuration.clientLimits.anonymousBurst = 1_000_000
        configuration.databaseUnavailableAfter = TestDatabases.leaseWait
        // The whole suite in parallel on two cores can hold a handler off its request's body
        // (which the connection then counts as slow to arrive) or off its answer for tens of
        // seconds; the tests of those deadlines set their own short ones.
        configuration.connectionLimits.bodyTimeout = .seconds(120)
        // A CI run answered one request of a concurrent burst 408 under the full suite; the head
        // deadline gets the same room (`ConnectionLimitTests` sets its own short ones).
        configuration.connectionLimits.headTimeout = .seconds(120)
        configuration.connectionLimits.answerTimeout = .seconds(300)
        // Likewise a statement whose task waits its turn for a minute or two: the deadline that
        // closes its connection is a bound against a hang here (the outage tests set 10 s).
        configuration.databaseStatementDeadline = .seconds(300)
        configure(&configuration)
        let app = try await LifeSignalHTTPServer.makeApplication(
            backend: backend, configuration: configuration, logger: logger,
            onRunning: { continuation.yield($0) })
        // A server that stops before it listens (a port it cannot bind) ends the wait at once,
        // and one that never listens ends it after two minutes: a bound against a hang.
        let task = Task {
            defer { continuation.finish() }
            try await app.run()
        }
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(120))
            if !Task.isCancelled { continuation.finish() }
        }
        var iterator = ports.makeAsyncIterator()
        let bound = await iterator.next()
        watchdog.cancel()
        guard let port = bound else {
            task.cancel()
            throw TestEnvironmentError(description: "server did not start listening within 120 s")
        }
        let server = TestServer(
            port: port, backend: backend, task: task,
            anonKey: await backend.auth.tokens.apiKey(role: .anon), serviceKey: await backend.auth.tokens.apiKey(role: .serviceRole))
        try await server.waitUntilReady()
        return server
    }

    /// Waits until `GET /ready` answers 200 (Realtime receives database changes), so a test's
    /// first join is not refused as "not receiving database changes yet". A bound of 60 s
    /// against a hang, not a speed check: a cold CI machine has taken over 5 s.
    private func waitUntilReady() async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await request("GET", "/ready", apiKey: .some(nil)).status == 200 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestEnvironmentError(description: "the server on port \(port) was not ready within 60 s")
    }

    private init(port: Int, backend: LifeSignalBackend, task: Task<Void, any Error>, anonKey: String, serviceKey: String) {
        self.port = port
        self.backend = backend
        self.anonKey = anonKey
        self.serviceKey = serviceKey
        self.task = task
    }

    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    /// A response as a test wants it: status, headers by lower-case name, body and its JSON.
    public struct Reply: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data

        public var text: String { String(decoding: body, as: UTF8.self) }
        public var json: [String: any Sendable]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: any Sendable] }
        public var jsonArray: [[String: any Sendable]]? { (try? JSONSerialization.jsonObject(with: body)) as? [[String: any Sendable]] }
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// The operator's token that opens `/metrics` on a test server's public port.
    public static let metricsToken = "test-metrics-token"

    /// `GET /metrics` as the operator's scraper sends it: no API key, the metrics token.
    public func scrapeMetrics() async throws -> Reply {
        try await request("GET", "/metrics", apiKey: .some(nil), bearer: Self.metricsToken)
    }

    /// Sends a request over the socket. `apiKey` defaults to the anon key; pass `nil` to omit it.
    public func request(
        _ method: String, _ path: String, apiKey: String?? = .none, bearer: String? = nil,
        headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Reply {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            throw TestEnvironmentError(description: "bad path \(path)")
        }
        var request = URLRequest(url: url)
        // A bound against a hang, not a speed check: URLSession's 60 s default was reached by
        // answers held up under the whole suite running in parallel on two cores.
        request.timeoutInterval = 300
        request.httpMethod = method
        let key: String? =
            switch apiKey {
            case .none: anonKey
            case .some(let value): value
            }
        if let key { request.setValue(key, forHTTPHeaderField: "apikey") }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            if headers["Content-Type"] == nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestEnvironmentError(description: "not HTTP") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Reply(status: http.statusCode, headers: fields, body: data)
    }

    public func json(_ method: String, _ path: String, bearer: String? = nil, headers: [String: String] = [:], _ object: [String: any Sendable]) async throws
        -> Reply
    {
        try await request(method, path, bearer: bearer, headers: headers, body: try JSONSerialization.data(withJSONObject: object))
    }
}
