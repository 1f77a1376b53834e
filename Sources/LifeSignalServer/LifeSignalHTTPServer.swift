import Foundation
import Hummingbird
import HummingbirdWebSocket
import LifeSignalBackend
import LifeSignalWeb
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// Where and how the server listens.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Largest request body accepted, in bytes; larger ones are refused with 413.
    public var bodyLimit: Int
    /// How often the server runs the missed-check-in sweep; `nil` leaves it to callers of
    /// `process-check-ins` (tests drive it by hand).
    public var sweepInterval: Duration?
    /// How often the server looks for due rows in the delivery ledger (retries, rows a stopped
    /// server left); `nil` runs no worker (tests drive `sendDue` by hand).
    public var deliveryInterval: Duration? = .seconds(1)
    /// How long `/metrics` reuses the delivery ledger's counts before reading them again.
    public var deliveryMetricsMaximumAge: Duration = .seconds(10)
    /// Verifies Twilio's delivery-status callbacks (`POST /hooks/twilio/status`); `nil`: the
    /// route answers 404.
    public var twilioStatusCallback: TwilioWebhook?
    /// Texts to the server's number (`POST /hooks/twilio/sms`, ``SMSReplies``): the auth token
    /// and the URL set as the number's messaging webhook; `nil` answers 404.
    public var twilioMessages: TwilioWebhook?
    /// Phone calls' webhooks (`POST /hooks/twilio/voice/…`, ``VoiceCalls``); `nil` answers 404.
    public var twilioVoice: TwilioVoiceWebhook?
    /// The longest one sweep may run before the timer cancels it and goes on without it.
    public var sweepTimeout: Duration = .seconds(300)
    /// How often Realtime reads SQLite's change log (PostgreSQL pushes changes instead).
    public var realtimePollInterval: Duration = .milliseconds(100)
    /// On PostgreSQL, the longest a request waits for a database connection before it is
    /// answered 503 with `Retry-After`; while the database is known to be down, requests are
    /// answered so at once (docs/security.md, "Database outages").
    public var databaseUnavailableAfter: Duration = .seconds(5)
    /// On PostgreSQL, the longest the work of one request may hold a database connection; past
    /// it the connection is closed and the request answered 503 (a statement left unanswered by
    /// a restarting database would otherwise hold the request for good).
    public var databaseStatementDeadline: Duration = .seconds(15)
    /// Bounds on Realtime sockets, channels, bindings and inbound messages.
    public var realtimeLimits = RealtimeLimits()
    /// A signal that makes the server re-read the exposed schema (`lifesignal serve` uses
    /// SIGHUP); `nil` traps none. PostgreSQL's `NOTIFY pgrst, 'reload schema'` always works.
    public var reloadSignal: UnixSignal?
    /// Deadlines for reading requests and for idle keep-alive connections, the request head
    /// limit and the cap on connections per client address.
    public var connectionLimits: ConnectionLimits = .standard
    /// Anonymous requests per client address, and which proxies' `X-Forwarded-For` is believed.
    public var clientLimits = ClientLimits()
    /// Bounds on `/rest/v1` queries and Realtime filters, and the most rows a read returns.
    public var queryLimits: QueryLimits = .standard
    /// Where people reach this server from outside (`https://ls.example`): responder and
    /// invitation links are `<publicURL>/r/…` and `/i/…`, and their forms may post from it.
    /// `nil`: links name `http://127.0.0.1`, fit only for tests and a server on one machine.
    public var publicURL: URL?
    /// The server's VAPID public key (base64url), which the web app's pages hand the browser
    /// to subscribe to Web Push; `nil`: the pages offer no notifications.
    public var webPushPublicKey: String?
    /// A listener of its own for `/metrics` (`serve`: 127.0.0.1, the port after the server's),
    /// so the operator's numbers never show on the public port (`nil`: none).
    public var metricsListener: MetricsListener?
    /// A bearer token that opens `/metrics` on the public port as well (`nil`: that port
    /// answers 404 there).
    public var metricsToken: String?
    /// Told the metrics listener's bound port once it listens (port 0 picks one).
    public var onMetricsListening: @Sendable (Int) async -> Void = { _ in }

    public init(host: String = "127.0.0.1", port: Int = 54321, bodyLimit: Int = 1 << 20, sweepInterval: Duration? = .seconds(60)) {
        self.host = host
        self.port = port
        self.bodyLimit = bodyLimit
        self.sweepInterval = sweepInterval
    }
}

/// The Supabase-compatible HTTP surface over a ``LifeSignalBackend``.
public enum LifeSignalHTTPServer {
    /// Builds the application: reads the schema cache, then assembles the routes.
    ///
    /// `onRunning` receives the bound port once the server listens, which is how tests using
    /// port 0 find the port the system picked.
    public static func makeApplication(
        backend: LifeSignalBackend,
        configuration: ServerConfiguration = ServerConfiguration(),
        logger: Logger = Logger(label: "lifesignal.server"),
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let schema = SchemaCache(database: backend.database)
        try await schema.reload()
        // The context carries the socket's peer address (limits per client address) and the
        // caller, found once by the authentication middleware (docs/architecture.md).
        let router = Router(context: LifeSignalRequestContext.self)
        let metrics = ServerMetrics()
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        // CORS stays in front of every route rather than in the groups: a preflight matches no
        // route (Hummingbird runs a group's middleware only for the group's own routes).
        router.add(middleware: CORSMiddleware(rules: [("/rest/v1/", .echoOrigin), ("/auth/v1/", .echoOrigin), ("/functions/v1/", .edgeFunction)]))
        // Three route groups, each with the middleware its credential needs (a group's
        // middleware runs only for its own routes, so no middleware keeps a list of paths):
        // - probes and scrapers (health, ready, metrics, below): no key, no caller, no limit;
        // - Supabase's API: an API key on every request, the caller found once, limits per
        //   caller (one limiter for both limited groups, so a client has one budget);
        // - links and provider callbacks: the signed token in the path, or the provider's
        //   signature, is the credential; limits per client address.
        let limits = RateLimitMiddleware<LifeSignalRequestContext>(clock: backend.clock, limits: configuration.clientLimits)
        let api = router.group()
            .add(middleware: APIKeyMiddleware(auth: backend.auth))
            .add(middleware: AuthenticationMiddleware(auth: backend.auth))
            .add(middleware: limits)
        let open = router.group().add(middleware: limits)
        router.get("health") { _, _ in JSONResponse.make(.ok, ["status": "ok"]) }
        let hub = RealtimeHub(limits: configuration.realtimeLimits, counters: RealtimeCounters(registry: metrics.registry))
        // Readiness, apart from liveness: 503 until Realtime receives database changes (joins
        // before then are refused), and while PostgreSQL cannot be reached (a check of at most a
        // second old, or a new one: 5 s to connect, 15 s more at most), so a load balancer sends
        // requests elsewhere or waits instead of failing.
        let database = backend.database
        database.apply(DatabaseLimits(statementDeadline: configuration.databaseStatementDeadline, unavailableAfter: configuration.databaseUnavailableAfter))
        router.get("ready") { _, _ in
            guard await hub.isReady else {
                return JSONResponse.make(.serviceUnavailable, ["status": "starting", "message": "Realtime is not receiving database changes yet"])
            }
            if !(await database.isReachable()) {
                return JSONResponse.make(
                    .serviceUnavailable, ["status": "unavailable", "message": "The database cannot be reached"],
                    headers: DatabaseError.retryAfterHeaders)
            }
            return JSONResponse.make(.ok, ["status": "ready"])
        }
        AuthRoutes<LifeSignalRequestContext>(
            backend: backend, bodyLimit: configuration.bodyLimit,
            addresses: ClientAddressResolver(trustedProxies: configuration.clientLimits.trustedProxies)
        ).register(on: api)
        FunctionRoutes<LifeSignalRequestContext>(backend: backend, bodyLimit: configuration.bodyLimit).register(on: api)
        StorageRoutes<LifeSignalRequestContext>(backend: backend).register(on: api, publicObjects: open)
        ResponderPageRoutes<LifeSignalRequestContext>(backend: backend, publicURL: configuration.publicURL).register(on: open)
        // The web app at `/`: its cookie is its credential, checked per page; limits per address.
        let addresses = ClientAddressResolver(trustedProxies: configuration.clientLimits.trustedProxies)
        WebApp<LifeSignalRequestContext>(backend: backend, publicURL: configuration.publicURL, webPushKey: configuration.webPushPublicKey) {
            request, context in
            addresses.clientAddress(peer: context.remoteAddress, headers: request.headers)
        }.register(on: open)
        RESTRoutes<LifeSignalRequestContext>(backend: backend, schema: schema, bodyLimit: configuration.bodyLimit, limits: configuration.queryLimits)
            .register(on: api)
        let realtime = RealtimeRoutes<LifeSignalRequestContext>(
            hub: hub, backend: backend, schema: schema, logger: logger,
            addresses: ClientAddressResolver(trustedProxies: configuration.clientLimits.trustedProxies))
        realtime.register(on: api)
        TwilioStatusRoutes<LifeSignalRequestContext>(backend: backend, callback: configuration.twilioStatusCallback).register(on: open)
        TwilioMessageRoutes<LifeSignalRequestContext>(backend: backend, webhook: configuration.twilioMessages).register(on: open)
        TwilioVoiceRoutes<LifeSignalRequestContext>(backend: backend, webhook: configuration.twilioVoice).register(on: open)
        let deliverySummary = DeliverySummaryCache(backend: backend, maximumAge: configuration.deliveryMetricsMaximumAge)
        let scrape = MetricsScrape(metrics: metrics, backend: backend, summary: deliverySummary) {
            (await hub.connectionCount, await hub.channelCount)
        }
        // Scrapers carry no API key (a route outside the API group); the public
        // port answers only a bearer of the operator's token.
        router.get("metrics") { request, _ in try await scrape.answer(request, token: configuration.metricsToken) }
        var services: [any Service] = [
            RealtimeDispatcher(hub: hub, backend: backend, schema: schema, pollInterval: configuration.realtimePollInterval, logger: logger)
        ]
        services.append(SchemaReloader(schema: schema, database: backend.database, signal: configuration.reloadSignal, logger: logger))
        if let interval = configuration.sweepInterval {
            services.append(
                SweepScheduler(
                    backend: backend, interval: interval, tickTimeout: configuration.sweepTimeout,
                    monitor: SweepMonitor(registry: metrics.registry), logger: logger))
        }
        if let interval = configuration.deliveryInterval {
            services.append(DeliveryWorker(backend: backend, interval: interval, logger: logger))
        }
        if let listener = configuration.metricsListener {
            services.append(scrape.application(listener, logger: logger, onRunning: configuration.onMetricsListening))
        }
        return Application(
            router: router,
            server: .guardedHTTP1WebSocketUpgrade(
                webSocketRouter: realtime.webSocketRouter(), webSocket: realtime.webSocketConfiguration,
                limits: configuration.connectionLimits),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "LifeSignal"),
            services: services,
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }
}
