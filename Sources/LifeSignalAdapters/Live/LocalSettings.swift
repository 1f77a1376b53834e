import Foundation
import LifeSignalDomain

/// What opening the embedded backend takes: where its data lives, its database, its token
/// secret, fixed sign-in codes and how pushes leave.
///
/// `lifesignal serve` and the live clients both open the backend from these, so the default
/// data directory, the database beside it and the secret generated there are defined once:
/// a server and an app on one machine find the same data and accept each other's tokens.
///
/// | variable | default |
/// |---|---|
/// | `LIFESIGNAL_DATA_DIR` | `~/.lifesignal` |
/// | `LIFESIGNAL_DATABASE_URL` | `<data dir>/lifesignal.sqlite` |
/// | `LIFESIGNAL_JWT_SECRET` | generated once into `<data dir>/jwt-secret` (mode 0600) |
/// | `LIFESIGNAL_TEST_OTP` | none (`+15550001111=123456,…` fixes codes) |
/// | `LIFESIGNAL_FCM_SERVICE_ACCOUNT` | none (pushes are only recorded) |
public struct LocalSettings: Sendable, Hashable {
    public var dataDirectory: URL
    /// `postgres://…`, or an SQLite file path.
    public var databaseURL: String
    /// The HS256 secret; `nil` uses the one kept in the data directory (see ``resolvedJWTSecret()``).
    public var jwtSecret: String?
    public var testOTPs: TestOTPs
    /// A service-account key file; pushes then go through FCM HTTP v1.
    public var fcmServiceAccount: URL?

    public init(
        dataDirectory: URL, databaseURL: String? = nil, jwtSecret: String? = nil, testOTPs: TestOTPs = TestOTPs(),
        fcmServiceAccount: URL? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.databaseURL = databaseURL ?? Self.defaultDatabaseURL(in: dataDirectory)
        self.jwtSecret = jwtSecret
        self.testOTPs = testOTPs
        self.fcmServiceAccount = fcmServiceAccount
    }

    /// Reads the settings; nothing is written until ``open()`` or ``resolvedJWTSecret()``.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` naming `LIFESIGNAL_TEST_OTP` (or its file
    ///   key) when the codes do not parse.
    public init(_ values: ConfigurationValues) throws(DomainError) {
        let testOTPs: TestOTPs
        do { testOTPs = try TestOTPs(parsing: values["LIFESIGNAL_TEST_OTP"] ?? "") } catch {
            throw values.invalid("LIFESIGNAL_TEST_OTP", "is not a list of phone=code pairs: \(error.message)")
        }
        self.init(
            dataDirectory: Self.dataDirectory(values), databaseURL: values["LIFESIGNAL_DATABASE_URL"],
            jwtSecret: values["LIFESIGNAL_JWT_SECRET"], testOTPs: testOTPs,
            fcmServiceAccount: values["LIFESIGNAL_FCM_SERVICE_ACCOUNT"].map { URL(fileURLWithPath: $0) })
    }

    /// `LIFESIGNAL_DATA_DIR`, else `~/.lifesignal` (Application Support on Apple's devices,
    /// which have no home directory to write to). Never fails, so commands that only keep a
    /// file there need no other setting to be valid.
    public static func dataDirectory(_ values: ConfigurationValues) -> URL {
        if let path = values["LIFESIGNAL_DATA_DIR"] { return URL(fileURLWithPath: path, isDirectory: true) }
        #if os(macOS) || os(Linux)
            return URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true).appendingPathComponent(".lifesignal", isDirectory: true)
        #else
            return URL.applicationSupportDirectory.appendingPathComponent("lifesignal", isDirectory: true)
        #endif
    }

    public static func defaultDatabaseURL(in dataDirectory: URL) -> String {
        dataDirectory.appendingPathComponent("lifesignal.sqlite").path
    }

    /// The configured secret, or one generated on first use and kept (mode 0600) in the data
    /// directory, so tokens stay valid across restarts and across processes sharing the data.
    public func resolvedJWTSecret() throws(DomainError) -> String {
        if let jwtSecret {
            // jwt-kit takes no HMAC key shorter than SHA-256's output (and Supabase no such secret).
            guard jwtSecret.utf8.count >= 32 else { throw .invalidArgument("LIFESIGNAL_JWT_SECRET must be at least 32 characters") }
            return jwtSecret
        }
        let file = dataDirectory.appendingPathComponent("jwt-secret")
        if let existing = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), existing.count >= 32 {
            return existing
        }
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<48).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        do { try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true) } catch {
            throw .failedPrecondition("The data directory \(dataDirectory.path) cannot be created (set LIFESIGNAL_DATA_DIR): \(error.localizedDescription)")
        }
        guard FileManager.default.createFile(atPath: file.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw .failedPrecondition("The secret cannot be kept in \(file.path); set LIFESIGNAL_JWT_SECRET or LIFESIGNAL_DATA_DIR")
        }
        return secret
    }

    /// The service account in ``fcmServiceAccount``, or `nil` when none is configured.
    public func serviceAccount() throws(DomainError) -> ServiceAccount? {
        guard let fcmServiceAccount else { return nil }
        do { return try ServiceAccount.load(from: fcmServiceAccount) } catch {
            throw .invalidArgument("LIFESIGNAL_FCM_SERVICE_ACCOUNT=\(fcmServiceAccount.path) is not a readable service-account key file")
        }
    }

    /// A URL safe to print: the password of a PostgreSQL URL is masked.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "****"
        return components.string ?? url
    }
}
