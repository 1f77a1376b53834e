import Foundation
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

        public init(
            jwtSecret: String, clock: BackendClock = .system, smsSender: any SMSSender = LogSMSSender(),
            testOTPs: TestOTPs = TestOTPs(), issuer: String = "http://127.0.0.1:54321/auth/v1"
        ) {
            self.jwtSecret = jwtSecret
            self.clock = clock
            self.smsSender = smsSender
            self.testOTPs = testOTPs
            self.issuer = issuer
        }
    }

    public let database: any Database
    public let configuration: Configuration
    public let auth: AuthService
    public let checkIns: CheckInService
    public var clock: BackendClock { configuration.clock }

    /// Wraps an open database; call ``open(database:configuration:)`` to migrate it first.
    public init(database: any Database, configuration: Configuration) {
        self.database = database
        self.configuration = configuration
        self.auth = AuthService(
            database: database, clock: configuration.clock, secret: configuration.jwtSecret,
            sms: configuration.smsSender, testOTPs: configuration.testOTPs, issuer: configuration.issuer)
        self.checkIns = CheckInService(database: database, clock: configuration.clock)
    }

    /// Opens the database a URL names, applies pending migrations and returns the backend.
    public static func open(databaseURL: String, configuration: Configuration) async throws -> LifeSignalBackend {
        let database = try await DatabaseFactory.open(url: databaseURL)
        return try await open(database: database, configuration: configuration)
    }

    public static func open(database: any Database, configuration: Configuration) async throws -> LifeSignalBackend {
        try await Migrator.migrate(database)
        return LifeSignalBackend(database: database, configuration: configuration)
    }

    /// The cloud functions by name, for `/functions/v1/<name>`.
    public var functions: BackendFunctions { BackendFunctions(backend: self) }

    public func close() async throws { try await database.close() }
}
