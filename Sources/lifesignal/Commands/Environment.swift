import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// Configuration shared by the commands: the environment over the `LIFESIGNAL_CONFIG` file,
/// read through the same definitions the live clients use (``ConfigurationValues``,
/// ``LocalSettings``), so `serve` and an app on the same machine find the same data and
/// secret.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `LIFESIGNAL_CONFIG` | a JSON file of these settings (keys without `LIFESIGNAL_`, lower case) | none |
/// | `LIFESIGNAL_DATABASE_URL` | `postgres://…` or an SQLite file path | `<data dir>/lifesignal.sqlite` |
/// | `LIFESIGNAL_DATA_DIR` | where the SQLite file and generated secret live | `~/.lifesignal` |
/// | `LIFESIGNAL_JWT_SECRET` | HS256 secret for tokens and keys | generated once, kept in `<data dir>/jwt-secret` |
/// | `LIFESIGNAL_TEST_OTP` | fixed sign-in codes, `+15550001111=123456,…` | none |
/// | `LIFESIGNAL_FCM_SERVICE_ACCOUNT` | a service-account key file; pushes then go through FCM HTTP v1 | pushes are only recorded |
/// | `LIFESIGNAL_TWILIO_ACCOUNT_SID`, `_AUTH_TOKEN`, `_FROM` (`_API_URL`) | `serve` sends sign-in codes by SMS through Twilio | codes are written to the log |
enum LifeSignalEnvironment {
    /// The settings; a bad config file is refused when a command reads it.
    static func values() throws -> ConfigurationValues {
        try ConfigurationValues(environment: ProcessInfo.processInfo.environment)
    }

    /// The embedded backend's settings, with `--database` (when given) over the configured URL.
    static func local(database override: String? = nil) throws -> LocalSettings {
        var settings = try LocalSettings(values())
        if let override, !override.isEmpty { settings.databaseURL = override }
        return settings
    }

    static func dataDirectory() throws -> URL { LocalSettings.dataDirectory(try values()) }
}
