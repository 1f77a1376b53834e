import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite

extension LocalSettings {
    /// The backend's configuration: the secret, the codes, and FCM pushes when configured.
    public func backendConfiguration(issuer: String = "http://127.0.0.1:54321/auth/v1") throws(DomainError) -> LifeSignalBackend.Configuration {
        var configuration = LifeSignalBackend.Configuration(jwtSecret: try resolvedJWTSecret(), testOTPs: testOTPs, issuer: issuer)
        if let account = try serviceAccount() { configuration.pushSender = FCMPushSender(account: account) }
        return configuration
    }

    /// Opens (and migrates) the database with ``backendConfiguration(issuer:)``.
    ///
    /// - Throws: a ``DomainError``: a setting's refusal, or
    ///   ``DomainError/failedPrecondition(_:)`` when the database cannot be opened.
    public func open(engines: [DatabaseEngine] = [.sqlite]) async throws(DomainError) -> LifeSignalBackend {
        let configuration = try backendConfiguration()
        do { return try await LifeSignalBackend.open(databaseURL: databaseURL, configuration: configuration, engines: engines) } catch {
            if let domain = error as? DomainError { throw domain }
            throw .failedPrecondition("The database \(LocalSettings.redacted(databaseURL)) cannot be opened: \(error)")
        }
    }
}
