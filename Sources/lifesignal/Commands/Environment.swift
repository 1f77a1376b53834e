import Foundation
import LifeSignalAdapters
import LifeSignalBackend

/// Configuration from the environment, shared by the commands.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `LIFESIGNAL_DATABASE_URL` | `postgres://…` or an SQLite file path | `<data dir>/lifesignal.sqlite` |
/// | `LIFESIGNAL_DATA_DIR` | where the SQLite file and generated secret live | `~/.lifesignal` |
/// | `LIFESIGNAL_JWT_SECRET` | HS256 secret for tokens and keys | generated once, kept in `<data dir>/jwt-secret` |
/// | `LIFESIGNAL_TEST_OTP` | fixed sign-in codes, `+15550001111=123456,…` | none |
/// | `LIFESIGNAL_FCM_SERVICE_ACCOUNT` | a service-account key file; pushes then go through FCM HTTP v1 | pushes are only recorded |
enum LifeSignalEnvironment {
    static var values: [String: String] { ProcessInfo.processInfo.environment }

    static var dataDirectory: URL {
        if let path = values["LIFESIGNAL_DATA_DIR"], !path.isEmpty { return URL(fileURLWithPath: path, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".lifesignal", isDirectory: true)
    }

    static func databaseURL(override: String?) -> String {
        if let override, !override.isEmpty { return override }
        if let url = values["LIFESIGNAL_DATABASE_URL"], !url.isEmpty { return url }
        return dataDirectory.appendingPathComponent("lifesignal.sqlite").path
    }

    /// The configured secret, or one generated on first use and kept (mode 0600) beside the data
    /// so tokens stay valid across restarts.
    static func jwtSecret() throws -> String {
        if let secret = values["LIFESIGNAL_JWT_SECRET"], !secret.isEmpty { return secret }
        let file = dataDirectory.appendingPathComponent("jwt-secret")
        if let existing = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), existing.count >= 32 {
            return existing
        }
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<48).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        guard FileManager.default.createFile(atPath: file.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        return secret
    }

    /// The service account FCM pushes are sent with, from the key file
    /// `LIFESIGNAL_FCM_SERVICE_ACCOUNT` names; `nil` when unset (pushes are then only recorded).
    static func fcmServiceAccount() throws -> ServiceAccount? {
        guard let path = values["LIFESIGNAL_FCM_SERVICE_ACCOUNT"], !path.isEmpty else { return nil }
        return try ServiceAccount.load(from: URL(fileURLWithPath: path))
    }

    static func testOTPs() throws -> TestOTPs {
        guard let text = values["LIFESIGNAL_TEST_OTP"], !text.isEmpty else { return TestOTPs() }
        return try TestOTPs(parsing: text)
    }

    /// A URL safe to print: the password of a PostgreSQL URL is masked.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "****"
        return components.string ?? url
    }
}
