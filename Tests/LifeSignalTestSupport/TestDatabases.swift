import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalPostgres
import LifeSignalSQLite
import Logging

/// The two storage engines every backend and server test runs on.
public enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    public var description: String { rawValue }
}

/// Raised when the environment lacks what a test needs. It fails the test, loudly: a test
/// that needs PostgreSQL never passes by skipping.
public struct TestEnvironmentError: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// Fresh, isolated databases for tests: a new SQLite file, or a new PostgreSQL database in the
/// cluster `scripts/test` starts (its URL in `LIFESIGNAL_TEST_POSTGRES_URL`).
public enum TestDatabases {
    public static let postgresURLVariable = "LIFESIGNAL_TEST_POSTGRES_URL"

    /// How long a test's request may wait for a pooled PostgreSQL connection before a 503.
    /// The whole suite runs in parallel on two cores, where a lease can take longer than the
    /// server's 5 s default with the database perfectly well; the outage tests set their own.
    public static let leaseWait: Duration = .seconds(60)
    /// Each test opens its own databases and never closes their pools: idle connections close
    /// after this, so the test process stays far below its descriptor limit and PostgreSQL
    /// below its connection limit.
    public static let idleTimeout: Duration = .seconds(2)

    public static func make(_ engine: Engine) async throws -> any Database {
        switch engine {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-tests", isDirectory: true)
            return try await SQLiteDatabase(path: directory.appendingPathComponent("\(UUID().uuidString).sqlite").path)
        case .postgres:
            let admin = try await PostgresAdmin.shared.connection()
            let name = "lifesignal_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
            try await admin.executeOutsideTransaction("CREATE DATABASE \(name)")
            guard var components = URLComponents(string: try PostgresAdmin.url()) else {
                throw TestEnvironmentError(description: "\(postgresURLVariable) is not a URL")
            }
            components.path = "/" + name
            return try await PostgresDatabase(url: components.string ?? "", maximumConnections: 4, unavailableAfter: leaseWait, idleTimeout: idleTimeout)
        }
    }

    /// A second backend on the same PostgreSQL database as `test` (another server process,
    /// as far as the database can tell), sharing its secret and clock.
    public static func reopen(
        _ test: TestBackend,
        configure: (inout LifeSignalBackend.Configuration) -> Void = { _ in }
    ) async throws -> TestBackend {
        guard test.backend.database.dialect == .postgres, var components = URLComponents(string: try PostgresAdmin.url()),
            let name = test.backend.database.location.split(separator: "/").last
        else {
            throw TestEnvironmentError(description: "only a PostgreSQL backend can be opened twice")
        }
        components.path = "/" + name
        let sms = RecordingSMSSender()
        var configuration = LifeSignalBackend.Configuration(jwtSecret: secret, clock: .manual(test.clock), smsSender: sms, testOTPs: TestOTPs())
        configuration.deliveryRetry.afterCommitWait = afterCommitWait
        configure(&configuration)
        let backend = try await LifeSignalBackend.open(
            database: try await PostgresDatabase(url: components.string ?? "", maximumConnections: 4, unavailableAfter: leaseWait, idleTimeout: idleTimeout),
            configuration: configuration)
        return TestBackend(backend: backend, clock: test.clock, sms: sms)
    }

    static let secret = "test-secret-with-at-least-32-characters!"

    /// Tests read the ledger right after the call that queued messages, so a rule waits for its
    /// sends to finish: the whole suite on two cores can take longer than the 5 s a server
    /// waits. `DeliveryFaultTests` sets the server's bound back to test it.
    static let afterCommitWait: Duration = .seconds(300)

    /// A migrated backend on `engine` with a hand-driven clock and a recording SMS sender.
    /// `configure` changes the configuration last (a test of a limit sets it small).
    public static func backend(
        _ engine: Engine, testOTPs: TestOTPs = TestOTPs(), clock: ManualClock = ManualClock(),
        configure: (inout LifeSignalBackend.Configuration) -> Void = { _ in }
    ) async throws -> TestBackend {
        let sms = RecordingSMSSender()
        var configuration = LifeSignalBackend.Configuration(jwtSecret: secret, clock: .manual(clock), smsSender: sms, testOTPs: testOTPs)
        configuration.passwordIterations = 1000
        configuration.deliveryRetry.afterCommitWait = afterCommitWait
        configure(&configuration)
        let backend = try await LifeSignalBackend.open(database: try await make(engine), configuration: configuration)
        return TestBackend(backend: backend, clock: clock, sms: sms)
    }
}

public struct TestBackend: Sendable {
    public let backend: LifeSignalBackend
    public let clock: ManualClock
    public let sms: RecordingSMSSender

    /// Signs `phone` in through the real OTP flow and returns the session.
    public func signIn(_ phone: String) async throws -> IssuedSession {
        try await backend.auth.requestCode(phone: phone)
        let parsed = try PhoneNumber(phone)
        guard let code = await sms.lastCode(for: parsed) else {
            throw TestEnvironmentError(description: "no code was sent to \(phone)")
        }
        return try await backend.auth.verifyCode(phone: phone, code: code.value)
    }

    /// Counts rows, to prove a refused request wrote nothing.
    public func count(_ table: String) async throws -> Int {
        try await backend.database.query(SQL.raw("SELECT count(*) AS n FROM \(table)")).first?.int("n") ?? -1
    }
}

/// One admin connection to the test cluster, shared by every test in the process.
actor PostgresAdmin {
    static let shared = PostgresAdmin()
    private var database: PostgresDatabase?

    static func url() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[TestDatabases.postgresURLVariable], !url.isEmpty else {
            throw TestEnvironmentError(
                description: """
                    This test needs PostgreSQL, and \(TestDatabases.postgresURLVariable) is not set. \
                    Run the tests with `scripts/test`, which starts a throwaway PostgreSQL cluster.
                    """)
        }
        return url
    }

    func connection() async throws -> PostgresDatabase {
        if let database { return database }
        // Every PostgreSQL test creates its database through these two connections, and
        // CREATE DATABASE runs one at a time: under the whole suite a turn can take longer
        // than the 5 s a server waits (a clean-clone run failed so), so tests wait as long here
        // as for their own pools.
        let opened = try await PostgresDatabase(url: try Self.url(), maximumConnections: 2, unavailableAfter: TestDatabases.leaseWait)
        database = opened
        return opened
    }
}
