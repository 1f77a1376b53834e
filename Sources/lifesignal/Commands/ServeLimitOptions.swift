import ArgumentParser
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer

/// `serve`'s limits: connections, reads, database waits, the sweep, Realtime, sign-in and
/// sessions. Each is optional; unset, the server's default holds (docs/security.md lists them
/// all). Numbers that cannot mean anything are refused rather than read as "no limit".
struct ServeLimitOptions: ParsableArguments {
    @Option(help: "Seconds a client has to send a request head (default 10).") var headTimeout: Int?
    @Option(help: "Seconds a client has to send a request body (default 30).") var bodyTimeout: Int?
    @Option(help: "Seconds an idle keep-alive connection stays open (default 60).") var idleTimeout: Int?
    @Option(help: "Most connections one client address may hold; 0 sets no cap, as behind a proxy (default 256).")
    var maxConnectionsPerAddress: Int?
    @Option(
        help:
            "A reverse proxy whose X-Forwarded-For is believed (repeat for several). Without one, limits per client address count the proxy's address for every client."
    )
    var trustedProxy: [String] = []
    @Option(help: "Most rows one /rest/v1 read returns, after the caller's limit (PostgREST's db-max-rows; 0 sets none; default 1000).")
    var dbMaxRows: Int?
    @Option(help: "Anonymous requests per minute from one client address, sustained (default 300; bursts of 600).") var anonymousPerMinute: Double?
    @Option(help: "PostgreSQL: seconds a request waits for a database connection before it is answered 503 (default 5).")
    var databaseUnavailableAfter: Int?
    @Option(
        help:
            "Seconds one request's database work may take before it is answered 503: PostgreSQL's connection is closed, SQLite's read interrupted (default 15)."
    )
    var statementDeadline: Int?
    @Option(help: "Seconds one sweep may run before the timer cancels it and goes on (default 300).") var sweepTimeout: Int?
    @Option(help: "Realtime channels one socket may join (default 100).") var realtimeChannelsPerSocket: Int?
    @Option(help: "Realtime sockets one person may hold open (default 16).") var realtimeSocketsPerUser: Int?
    @Option(help: "Shortest password accepted (default 8).") var passwordMinLength: Int?
    @Option(help: "Seconds after signing in during which a password, email or phone change needs no reauthentication code (default 600).")
    var reauthenticationWindow: Int?
    @Option(help: "Days a refresh token may go unused before its session ends (default 30).") var refreshTokenInactivityDays: Int?
    @Option(help: "Sign-in codes sent to one number in a day (default 10).") var codesPerNumberPerDay: Int?
    @Option(help: "Sign-in codes sent at the request of one client address in an hour (default 20).") var codesPerAddressPerHour: Int?
    @Option(help: "Password hashes that may wait for a turn before sign-ins are refused 429 (default 64).") var passwordHashWaiting: Int?
    @Option(help: "Largest width and height, in pixels, of an uploaded image (default 4096).") var imageMaxDimension: Int?
    @Option(help: "Invitations (invite-contact) one person may send in a day (default 20).") var invitationsPerDay: Int?
    @Option(help: "Invitation SMS one number receives in a day, from everyone together; 0 sends none (default 3).")
    var invitationSmsPerNumberPerDay: Int?

    func validate() throws {
        let zeroOrMore: [(String, Int?)] = [
            ("--db-max-rows", dbMaxRows), ("--database-unavailable-after", databaseUnavailableAfter),
            ("--statement-deadline", statementDeadline), ("--sweep-timeout", sweepTimeout),
            ("--realtime-channels-per-socket", realtimeChannelsPerSocket), ("--realtime-sockets-per-user", realtimeSocketsPerUser),
            ("--reauthentication-window", reauthenticationWindow), ("--password-hash-waiting", passwordHashWaiting),
            ("--invitation-sms-per-number-per-day", invitationSmsPerNumberPerDay),
        ]
        for (flag, value) in zeroOrMore where (value ?? 0) < 0 {
            throw ValidationError("\(flag) must be 0 or more, not \(value ?? 0)")
        }
        // A cap of zero would refuse every sign-in or upload: surely a mistake, not a limit.
        let oneOrMore: [(String, Int?)] = [
            ("--password-min-length", passwordMinLength), ("--refresh-token-inactivity-days", refreshTokenInactivityDays),
            ("--codes-per-number-per-day", codesPerNumberPerDay), ("--codes-per-address-per-hour", codesPerAddressPerHour),
            ("--image-max-dimension", imageMaxDimension), ("--invitations-per-day", invitationsPerDay),
        ]
        for (flag, value) in oneOrMore where (value ?? 1) < 1 {
            throw ValidationError("\(flag) must be 1 or more, not \(value ?? 0)")
        }
        if let anonymousPerMinute, !(anonymousPerMinute > 0 && anonymousPerMinute.isFinite) {
            throw ValidationError("--anonymous-per-minute must be a positive number, not \(anonymousPerMinute)")
        }
        // Days become seconds: refuse what would not fit rather than trap.
        if let days = refreshTokenInactivityDays, days > 100 * 365 {
            throw ValidationError("--refresh-token-inactivity-days must be at most 36500, not \(days)")
        }
    }

    /// The server's own limits.
    func apply(to configuration: inout ServerConfiguration) {
        if let headTimeout { configuration.connectionLimits.headTimeout = .seconds(max(headTimeout, 1)) }
        if let bodyTimeout { configuration.connectionLimits.bodyTimeout = .seconds(max(bodyTimeout, 1)) }
        if let idleTimeout { configuration.connectionLimits.idleTimeout = .seconds(max(idleTimeout, 1)) }
        if let maxConnectionsPerAddress {
            configuration.connectionLimits.maxConnectionsPerAddress = maxConnectionsPerAddress > 0 ? maxConnectionsPerAddress : nil
        }
        configuration.clientLimits.trustedProxies = trustedProxy
        if let dbMaxRows { configuration.queryLimits.maxRows = dbMaxRows > 0 ? dbMaxRows : nil }
        if let anonymousPerMinute { configuration.clientLimits.anonymousPerMinute = max(anonymousPerMinute, 1) }
        if let databaseUnavailableAfter { configuration.databaseUnavailableAfter = .seconds(max(databaseUnavailableAfter, 1)) }
        if let statementDeadline { configuration.databaseStatementDeadline = .seconds(max(statementDeadline, 1)) }
        if let sweepTimeout { configuration.sweepTimeout = .seconds(max(sweepTimeout, 1)) }
        if let realtimeChannelsPerSocket { configuration.realtimeLimits.channelsPerSocket = max(realtimeChannelsPerSocket, 1) }
        if let realtimeSocketsPerUser { configuration.realtimeLimits.socketsPerUser = max(realtimeSocketsPerUser, 1) }
    }

    /// The backend's: sign-in, sessions and uploads.
    func apply(to configuration: inout LifeSignalBackend.Configuration) {
        if let passwordMinLength { configuration.authPolicy.minimumPasswordLength = passwordMinLength }
        if let reauthenticationWindow { configuration.authPolicy.reauthenticationWindow = TimeInterval(reauthenticationWindow) }
        if let refreshTokenInactivityDays { configuration.authPolicy.refreshTokenInactivity = TimeInterval(refreshTokenInactivityDays) * 86_400 }
        if let codesPerNumberPerDay { configuration.signInLimits.codesPerNumberPerDay = codesPerNumberPerDay }
        if let codesPerAddressPerHour { configuration.signInLimits.codesPerAddressPerHour = codesPerAddressPerHour }
        if let passwordHashWaiting { configuration.signInLimits.passwordHashWaiting = passwordHashWaiting }
        if let imageMaxDimension { configuration.imageLimits = ImageLimits(maximumWidth: imageMaxDimension, maximumHeight: imageMaxDimension) }
        if let invitationsPerDay { configuration.invitationLimits.invitationsPerInviterPerDay = invitationsPerDay }
        if let invitationSmsPerNumberPerDay { configuration.invitationLimits.smsPerNumberPerDay = invitationSmsPerNumberPerDay }
    }

    /// The sign-in and session numbers in force, for the banner.
    static func summary(of configuration: LifeSignalBackend.Configuration) -> String {
        let policy = configuration.authPolicy
        let limits = configuration.signInLimits
        return "passwords of \(policy.minimumPasswordLength)+ characters; reauthentication after \(Int(policy.reauthenticationWindow)) s; "
            + "sessions end after \(Int(policy.refreshTokenInactivity / 86_400)) days unused; "
            + "\(limits.codesPerNumberPerDay) codes a number a day, \(limits.codesPerAddressPerHour) an address an hour"
    }
}
