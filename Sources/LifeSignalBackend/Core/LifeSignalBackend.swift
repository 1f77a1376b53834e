import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Logging

/// The backend core: every LifeSignal rule, over one database.
///
/// The server exposes it over HTTP and the Local adapters call it in-process; both reach the
/// same services, so a rule lives here once.
public final class LifeSignalBackend: Sendable {
    public struct Configuration: Sendable {
        /// Signs access tokens and API keys (HS256).
        public var jwtSecret: String
        public var clock: BackendClock
        public var smsSender: any SMSSender
        public var testOTPs: TestOTPs
        /// The `iss` claim of access tokens.
        public var issuer: String
        /// Delivers pushes to devices; the default only records them.
        public var pushSender: any PushSender
        /// PBKDF2 rounds for new password hashes (tests lower it; stored hashes keep theirs).
        public var passwordIterations = PasswordHasher.defaultIterations
        /// Password hashes at once, codes per number and per client address (`SignInLimits`).
        public var signInLimits = SignInLimits()
        /// The widest and tallest picture storage takes (`ImageLimits`, 4096 × 4096).
        public var imageLimits = ImageLimits.standard
        /// Minimum password length, reauthentication window, refresh-token inactivity (`AuthPolicy`).
        public var authPolicy = AuthPolicy()
        /// The Firebase project whose ID tokens are accepted as callers (`nil`: none are).
        public var firebase: FirebaseAuthSettings?
        /// How long a QR code from `get-qr-code` or `reset-qr-code` links (docs/security.md,
        /// "Consent"); at least a second. Default: 10 minutes.
        public var qrCodeLifetime: TimeInterval = QRCodes.defaultLifetime
        /// SMS, email and direct-APNs senders for notifications; push always goes through
        /// ``pushSender``. A channel without a sender gets no ledger rows.
        public var deliveryChannels = DeliveryChannels()
        /// Backoff, attempts, lease and concurrency of the delivery ledger.
        public var deliveryRetry = DeliveryRetryPolicy()
        /// The page a responder opens from a message about an alert (`nil`: messages carry none).
        public var responderLink: @Sendable (_ alert: UUID, _ responder: UserID) -> URL? = { _, _ in nil }
        /// The page an invitation SMS links to (`/i/<token>`; `nil`: the SMS carries none).
        public var invitationLink: @Sendable (_ invitation: UUID) -> URL? = { _ in nil }
        /// The one-tap check-in page a reminder links to (`/c/<token>`, bound to the person and
        /// their deadline; `nil`: reminders carry none).
        public var checkInLink: @Sendable (_ person: UserID, _ deadline: Date) -> URL? = { _, _ in nil }
        /// The page a test alert's message links to, to confirm it (`/t/<token>`; `nil`: none).
        public var testAlertLink: @Sendable (_ notification: UUID) -> URL? = { _ in nil }
        /// Invitations one person may send a day, invitation SMS one number receives a day.
        public var invitationLimits = InvitationLimits()
        /// Caps on paid channels, the countries SMS may go to, and who hears of held messages.
        public var deliveryRules = DeliveryRules()
        /// Checks a captcha before a sign-in code is sent or an account made (`nil`: none asked).
        public var captcha: (any CaptchaVerifier)?
        /// The push services a browser's Web Push subscription may name; `nil`: this server
        /// sends no Web Push, and registering a `web` token is refused.
        public var webPushEndpoints: WebPushEndpoints?
        /// Told of every delivery attempt's outcome (the server counts them on `/metrics`).
        public var deliveryObserver: @Sendable (DeliveryChannel, DeliveryOutcome) -> Void = { _, _ in }

        public init(
            jwtSecret: String, clock: BackendClock = .system, smsSender: any SMSSender = LogSMSSender(),
            testOTPs: TestOTPs = TestOTPs(), issuer: String = "http://127.0.0.1:54321/auth/v1",
            pushSender: any PushSender = RecordingPushSender()
        ) {
            self.jwtSecret = jwtSecret
            self.clock = clock
            self.smsSender = smsSender
            self.testOTPs = testOTPs
            self.issuer = issuer
            self.pushSender = pushSender
        }
    }

    public let database: any Database
    public let configuration: Configuration
    public let auth: AuthService
    public let checkIns: CheckInService
    /// Committed changes of the tables clients read, for Realtime and in-process streams.
    public let changes: ChangeFeed
    public let contacts: ContactsService
    public let notifications: NotificationService
    public let alerts: AlertService
    public let pings: PingService
    public let profiles: ProfileService
    public let sweep: CheckInSweep
    /// Seed `004_…`'s locations, events and routes.
    public let content: ContentService
    /// The delivery ledger: queued pushes, SMS and email, their attempts and retries.
    public let deliveries: DeliveryLedger
    public var clock: BackendClock { configuration.clock }

    /// Wraps an open database; call ``open(database:configuration:)`` to migrate it first.
    public init(database: any Database, configuration: Configuration) {
        self.database = database
        self.configuration = configuration
        self.auth = AuthService(
            database: database, clock: configuration.clock, secret: configuration.jwtSecret,
            sms: configuration.smsSender, testOTPs: configuration.testOTPs, issuer: configuration.issuer,
            passwords: PasswordHasher(iterations: configuration.passwordIterations), limits: configuration.signInLimits,
            policy: configuration.authPolicy, firebase: configuration.firebase, email: configuration.deliveryChannels.email,
            rules: configuration.deliveryRules, captcha: configuration.captcha)
        let changes = ChangeFeed()
        let senders = DeliverySenders(
            database: database, clock: configuration.clock, changes: changes, push: configuration.pushSender,
            channels: configuration.deliveryChannels, link: configuration.responderLink, observe: configuration.deliveryObserver,
            invitationLink: configuration.invitationLink, checkInLink: configuration.checkInLink, testLink: configuration.testAlertLink)
        let ledger = DeliveryLedger(database: database, clock: configuration.clock, senders: senders, policy: configuration.deliveryRetry)
        self.deliveries = ledger
        let notifier = Notifier(database: database, changes: changes, push: configuration.pushSender, ledger: ledger)
        // The rules' transactions queue ledger rows for exactly this server's channels.
        let rulesDatabase = DeliveringDatabase(
            base: database, channels: configuration.deliveryChannels.configured, rules: configuration.deliveryRules)
        self.checkIns = CheckInService(
            database: rulesDatabase, clock: configuration.clock, notifier: notifier,
            pins: CheckInPINs(database: database, clock: configuration.clock, passwords: auth.passwords))
        self.changes = changes
        self.contacts = ContactsService(
            database: rulesDatabase, clock: configuration.clock, notifier: notifier, qrCodeLifetime: configuration.qrCodeLifetime,
            invitationLimits: configuration.invitationLimits)
        self.notifications = NotificationService(
            database: rulesDatabase, clock: configuration.clock, notifier: notifier, webPushEndpoints: configuration.webPushEndpoints)
        self.alerts = AlertService(database: rulesDatabase, clock: configuration.clock, notifier: notifier)
        self.pings = PingService(database: rulesDatabase, clock: configuration.clock, notifier: notifier)
        self.profiles = ProfileService(database: rulesDatabase, clock: configuration.clock, notifier: notifier)
        self.sweep = CheckInSweep(database: rulesDatabase, clock: configuration.clock, notifier: notifier, auth: auth)
        self.content = ContentService(database: rulesDatabase, clock: configuration.clock)
    }

    /// Opens the database a URL names with one of `engines` (`.sqlite` from `LifeSignalSQLite`,
    /// `.postgres` from `LifeSignalPostgres`), applies pending migrations and returns the
    /// backend.
    public static func open(databaseURL: String, configuration: Configuration, engines: [DatabaseEngine]) async throws -> LifeSignalBackend {
        let database = try await DatabaseFactory.open(url: databaseURL, engines: engines)
        return try await open(database: database, configuration: configuration)
    }

    public static func open(database: any Database, configuration: Configuration) async throws -> LifeSignalBackend {
        // Checks the function table now: a handler missing or registered twice stops here.
        _ = BackendFunctions.registry
        // A migration may rewrite a big table: no request-sized deadline on it.
        try await DatabasePatience.$statementDeadline.withValue(.seconds(24 * 3600)) { try await Migrator.migrate(database) }
        try await database.afterMigrations()
        return LifeSignalBackend(database: database, configuration: configuration)
    }

    /// The cloud functions by name, for `/functions/v1/<name>`.
    public var functions: BackendFunctions { BackendFunctions(backend: self) }

    public func close() async throws { try await database.close() }
}
