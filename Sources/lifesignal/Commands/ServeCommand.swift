import ArgumentParser
import Foundation
import Hummingbird
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import LifeSignalServer
import Logging
import UnixSignals

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
    @OptionGroup var limits: ServeLimitOptions
    @OptionGroup var firebase: ServeFirebaseOptions
    @OptionGroup var sending: ServeSendingOptions

    func run() async throws {
        LoggingSystem.bootstrap { ServerLogHandler(label: $0) }
        let local = try LifeSignalEnvironment.local(database: database)
        var configuration = try local.backendConfiguration(issuer: "http://\(host):\(port)/auth/v1")
        limits.apply(to: &configuration)
        configuration.firebase = try firebase.settings(try LifeSignalEnvironment.values())
        let delivery = try DeliverySetup(try LifeSignalEnvironment.values())
        if var codes = delivery.twilio {
            // Codes are not in the delivery ledger: a status report would find no row to mark.
            codes.statusCallback = nil
            configuration.smsSender = TwilioSMSSender(client: TwilioClient(configuration: codes))
        }
        configuration.deliveryChannels = delivery.channels
        let webPush = try WebPushSetup(
            try LifeSignalEnvironment.values(), dataDirectory: try LifeSignalEnvironment.dataDirectory(), publicURL: delivery.publicURL)
        configuration.webPushEndpoints = webPush.endpoints
        configuration.deliveryChannels.webPush = try webPush.sender()
        try sending.apply(to: &configuration, values: try LifeSignalEnvironment.values(), twilio: delivery.twilio)
        guard let linkBase = delivery.publicURL ?? URL(string: "http://\(host):\(port)") else {
            throw ValidationError("--host \(host) does not make a URL; set LIFESIGNAL_PUBLIC_URL")
        }
        let links = ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: linkBase)
        configuration.responderLink = { alert, responder in links.url(alertID: alert, responder: responder, now: Date()) }
        configuration.invitationLink = { invitation in links.invitationURL(invitationID: invitation, now: Date()) }
        configuration.checkInLink = { person, deadline in links.checkInURL(user: person, deadline: deadline) }
        configuration.testAlertLink = { message in links.testURL(notification: message, now: Date()) }
        let channels = delivery.summary
        let push =
            try local.serviceAccount().map { "FCM HTTP v1, project \($0.projectID)" }
            ?? "recorded only (set LIFESIGNAL_FCM_SERVICE_ACCOUNT to send through FCM)"
        let backend = try await LifeSignalBackend.open(databaseURL: local.databaseURL, configuration: configuration, engines: DatabaseEngine.all)
        let pushDescription = push
        let signInSummary = ServeLimitOptions.summary(of: configuration)
        let sendingSummary = ServeSendingOptions.summary(of: configuration)
        let firebaseSummary = ServeFirebaseOptions.summary(configuration.firebase)
        // A terminal's scrollback and a service's captured stdout are logs too: the key that
        // bypasses every policy appears only when asked for.
        let serviceRoleKey = showServiceRoleKey ? await backend.auth.tokens.apiKey(role: .serviceRole) : "not shown (--show-service-role-key prints it)"
        let anonKey = await backend.auth.tokens.apiKey(role: .anon)
        var serverConfiguration = ServerConfiguration(host: host, port: port, sweepInterval: sweepInterval > 0 ? .seconds(sweepInterval) : nil)
        serverConfiguration.reloadSignal = .sighup
        serverConfiguration.publicURL = delivery.publicURL
        serverConfiguration.webPushPublicKey = webPush.key.publicKeyBase64URL
        if let twilio = delivery.twilio, let callback = twilio.statusCallback {
            serverConfiguration.twilioStatusCallback = TwilioWebhook(authToken: twilio.authToken, url: callback)
        }
        // Texts to the number: its messaging webhook must be set to <public URL>/hooks/twilio/sms.
        if let twilio = delivery.twilio, let publicURL = delivery.publicURL {
            serverConfiguration.twilioMessages = TwilioWebhook(authToken: twilio.authToken, url: publicURL.appendingPathComponent("hooks/twilio/sms"))
            serverConfiguration.twilioVoice = TwilioVoiceWebhook(authToken: twilio.authToken, publicURL: publicURL)
        }
        limits.apply(to: &serverConfiguration)
        sending.apply(to: &serverConfiguration, values: try LifeSignalEnvironment.values())
        let metricsLine =
            (serverConfiguration.metricsListener.map { "http://\($0.host):\($0.port)/metrics" } ?? "no listener (--metrics-port 0)")
            + (serverConfiguration.metricsToken != nil ? "; on this port with LIFESIGNAL_METRICS_TOKEN" : "")
        let app = try await LifeSignalHTTPServer.makeApplication(
            backend: backend, configuration: serverConfiguration,
            onRunning: { bound in
                // Written unbuffered, so the URL and keys reach a pipe or file before any request.
                FileHandle.standardOutput.write(
                    Data(
                        """
                        LifeSignal is listening on http://\(host):\(bound)
                          data:             \(LocalSettings.redacted(backend.database.location)) (\(backend.database.dialect.rawValue))
                          push:             \(pushDescription)
                          apns:             \(channels.apns)
                          sms:              \(channels.sms)
                          email:            \(channels.email)
                          web push:         \(webPush.summary)
                          responder links:  \(channels.links)
                          anon key:         \(anonKey)
                          service_role key: \(serviceRoleKey)
                          sign-in:          \(signInSummary)
                          paid messages:    \(sendingSummary)
                          metrics:          \(metricsLine)
                          firebase:         \(firebaseSummary)
                          tasks:            \(EventLoopConcurrencyExecutor.isInstalled ? "on NIO's event loops" : "on Swift's thread pool")
                        Numbers in LIFESIGNAL_TEST_OTP get their fixed codes and no SMS. Ctrl-C stops the server.

                        """.utf8))
            })
        try await app.runService()
        try await delivery.apns?.shutdown()
        // Messages a rule left sending get a moment to go now, not after their lease.
        await backend.deliveries.drain(atMost: .seconds(10))
        try await backend.close()
    }
}
