import ArgumentParser
import Foundation
import Hummingbird
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalServer
import UnixSignals
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Supabase-compatible server (SQLite by default; --database postgres://… for PostgreSQL).")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 54321
    @Option(help: "Seconds between missed-check-in sweeps (0 turns the timer off).") var sweepInterval = 60
    @Option(help: "A postgres:// URL or an SQLite file path (default: $LIFESIGNAL_DATABASE_URL, else ~/.lifesignal/lifesignal.sqlite).")
    var database: String?
    @Flag(help: "Print the service_role key at start. It bypasses every access policy, so it is not shown unless asked for.")
    var showServiceRoleKey = false
    @Option(help: "Seconds a client has to send a request head (default 10).") var headTimeout: Int?
    @Option(help: "Seconds a client has to send a request body (default 30).") var bodyTimeout: Int?
    @Option(help: "Seconds an idle keep-alive connection stays open (default 60).") var idleTimeout: Int?
    @Option(help: "Most connections one client address may hold; 0 sets no cap, as behind a proxy (default 256).")
    var maxConnectionsPerAddress: Int?
    @Option(help: "A reverse proxy whose X-Forwarded-For is believed (repeat for several). Without one, limits per client address count the proxy's address for every client.")
    var trustedProxy: [String] = []
    @Option(help: "Most rows one /rest/v1 read returns, after the caller's limit (PostgREST's db-max-rows; 0 sets none; default 1000).")
    var dbMaxRows: Int?
    @Option(help: "Anonymous requests per minute from one client address, sustained (default 300; bursts of 600).") var anonymousPerMinute: Double?
    @Option(help: "PostgreSQL: seconds a request waits for a database connection before it is answered 503 (default 5).")
    var databaseUnavailableAfter: Int?
    @Option(help: "PostgreSQL: seconds one request's database work may take before its connection is closed and it is answered 503 (default 15).")
    var statementDeadline: Int?
    @Option(help: "Seconds one sweep may run before the timer cancels it and goes on (default 300).") var sweepTimeout: Int?
    @Option(help: "Realtime channels one socket may join (default 100).") var realtimeChannelsPerSocket: Int?
    @Option(help: "Realtime sockets one person may hold open (default 16).") var realtimeSocketsPerUser: Int?

    /// Refuses numbers that cannot mean anything, rather than reading them as "no limit".
    func validate() throws {
        let counts: [(String, Int?)] = [("--db-max-rows", dbMaxRows), ("--database-unavailable-after", databaseUnavailableAfter),
                                        ("--statement-deadline", statementDeadline), ("--sweep-timeout", sweepTimeout),
                                        ("--realtime-channels-per-socket", realtimeChannelsPerSocket),
                                        ("--realtime-sockets-per-user", realtimeSocketsPerUser)]
        for (flag, value) in counts where (value ?? 0) < 0 {
            throw ValidationError("\(flag) must be 0 or more, not \(value ?? 0)")
        }
        if let anonymousPerMinute, !(anonymousPerMinute > 0 && anonymousPerMinute.isFinite) {
            throw ValidationError("--anonymous-per-minute must be a positive number, not \(anonymousPerMinute)")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        let local = try LifeSignalEnvironment.local(database: database)
        let configuration = try local.backendConfiguration(issuer: "http://\(host):\(port)/auth/v1")
        let push = try local.serviceAccount().map { "FCM HTTP v1, project \($0.projectID)" }
            ?? "recorded only (set LIFESIGNAL_FCM_SERVICE_ACCOUNT to send through FCM)"
        let backend = try await LifeSignalBackend.open(databaseURL: local.databaseURL, configuration: configuration)
        let pushDescription = push
        // A terminal's scrollback and a service's captured stdout are logs too: the key that
        // bypasses every policy appears only when asked for.
        let serviceRoleKey = showServiceRoleKey ? backend.auth.apiKey(role: .serviceRole) : "not shown (--show-service-role-key prints it)"
        var serverConfiguration = ServerConfiguration(host: host, port: port, sweepInterval: sweepInterval > 0 ? .seconds(sweepInterval) : nil)
        serverConfiguration.reloadSignal = .sighup
        if let headTimeout { serverConfiguration.connectionLimits.headTimeout = .seconds(max(headTimeout, 1)) }
        if let bodyTimeout { serverConfiguration.connectionLimits.bodyTimeout = .seconds(max(bodyTimeout, 1)) }
        if let idleTimeout { serverConfiguration.connectionLimits.idleTimeout = .seconds(max(idleTimeout, 1)) }
        if let maxConnectionsPerAddress { serverConfiguration.connectionLimits.maxConnectionsPerAddress = maxConnectionsPerAddress > 0 ? maxConnectionsPerAddress : nil }
        serverConfiguration.clientLimits.trustedProxies = trustedProxy
        if let dbMaxRows { serverConfiguration.queryLimits.maxRows = dbMaxRows > 0 ? dbMaxRows : nil }
        if let anonymousPerMinute { serverConfiguration.clientLimits.anonymousPerMinute = max(anonymousPerMinute, 1) }
        if let databaseUnavailableAfter { serverConfiguration.databaseUnavailableAfter = .seconds(max(databaseUnavailableAfter, 1)) }
        if let statementDeadline { serverConfiguration.databaseStatementDeadline = .seconds(max(statementDeadline, 1)) }
        if let sweepTimeout { serverConfiguration.sweepTimeout = .seconds(max(sweepTimeout, 1)) }
        if let realtimeChannelsPerSocket { serverConfiguration.realtimeLimits.channelsPerSocket = max(realtimeChannelsPerSocket, 1) }
        if let realtimeSocketsPerUser { serverConfiguration.realtimeLimits.socketsPerUser = max(realtimeSocketsPerUser, 1) }
        let app = try await LifeSignalHTTPServer.makeApplication(
            backend: backend, configuration: serverConfiguration,
            onRunning: { bound in
                // Written unbuffered, so the URL and keys reach a pipe or file before any request.
                FileHandle.standardOutput.write(Data("""
                    LifeSignal is listening on http://\(host):\(bound)
                      data:             \(LocalSettings.redacted(backend.database.location)) (\(backend.database.dialect.rawValue))
                      push:             \(pushDescription)
                      anon key:         \(backend.auth.apiKey(role: .anon))
                      service_role key: \(serviceRoleKey)
                    Sign-in codes are written to this log unless LIFESIGNAL_TEST_OTP fixes them. Ctrl-C stops the server.

                    """.utf8))
            })
        try await app.runService()
        try await backend.close()
    }
}
