import Foundation

/// Which Firebase project's ID tokens the server accepts as callers, and where their public
/// keys are published: third-party sign-in as Supabase offers it for Firebase Auth
/// (docs/security.md, "Firebase ID tokens").
///
/// With these settings, a bearer token whose `iss` is this project's
/// (`https://securetoken.google.com/<project id>`) is checked as a Firebase ID token and stands
/// for the LifeSignal account linked to its Firebase uid; every other token is checked as
/// LifeSignal's own.
public struct FirebaseAuthSettings: Sendable, Equatable {
    /// Google's x509 certificates (PEM by `kid`) for Firebase ID tokens.
    public static let googleKeysURL = URL(string: "https://www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com")!

    /// The Firebase project id: a token's `aud` must be exactly this.
    public var projectID: String
    /// Where the signing keys are read: a JWKS (`{"keys": [...]}`) or Google's x509 JSON
    /// (`{"<kid>": "-----BEGIN CERTIFICATE-----…"}`); both are accepted.
    public var keysURL: URL
    /// Keys are fetched at most once in this many seconds, whatever asks: a stream of tokens
    /// naming made-up `kid`s cannot make the server hammer the key URL. Also the least time a
    /// fetched key set is kept, when its `Cache-Control: max-age` is shorter. Default: 30 s.
    public var refetchInterval: TimeInterval
    /// How long one fetch of the keys may take before the requests waiting for it are refused
    /// (401): a key server that hangs must not hang requests. Default: 5 s.
    public var fetchTimeout: Duration
    /// How long keys are kept when the key server sends no `max-age`. Default: 5 minutes.
    public var defaultMaxAge: TimeInterval

    public init(
        projectID: String, keysURL: URL = Self.googleKeysURL, refetchInterval: TimeInterval = 30,
        fetchTimeout: Duration = .seconds(5), defaultMaxAge: TimeInterval = 300
    ) {
        self.projectID = projectID
        self.keysURL = keysURL
        self.refetchInterval = max(0, refetchInterval)
        self.fetchTimeout = fetchTimeout
        self.defaultMaxAge = max(0, defaultMaxAge)
    }

    /// The `iss` of this project's ID tokens.
    public var issuer: String { "https://securetoken.google.com/\(projectID)" }
}
