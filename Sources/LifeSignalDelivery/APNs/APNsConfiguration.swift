import Foundation

/// An app's APNs credentials and where to send: token-based authentication with a `.p8` signing
/// key from the Apple Developer account (Certificates, Identifiers & Profiles → Keys).
public struct APNsConfiguration: Sendable, CustomStringConvertible {
    /// The developer account's Team ID (10 characters): the provider token's issuer.
    public var teamID: String
    /// The signing key's Key ID (10 characters): the provider token's `kid`.
    public var keyID: String
    /// The `.p8` file's contents: a PEM PKCS#8 P-256 private key.
    public var privateKeyPEM: String
    /// The app's bundle id, sent as `apns-topic`.
    public var topic: String
    /// ``productionURL``, ``sandboxURL`` (apps built for development), or a stand-in's address.
    public var baseURL: URL
    /// Certificates (PEM, one or more) to trust besides the system's roots: a stand-in's
    /// self-signed certificate in tests. Apple's servers need none.
    public var additionalTrustRootsPEM: String?
    /// The longest one send may take, connecting included.
    public var timeout: Duration
    /// How old a provider token may get before it is replaced. Apple refuses tokens older than
    /// an hour (403 `ExpiredProviderToken`) and answers 429 `TooManyProviderTokenUpdates` to
    /// renewals more often than every 20 minutes, so 50 minutes stays clear of both.
    public var tokenRenewal: Duration

    public static let productionURL = URL(string: "https://api.push.apple.com")!
    public static let sandboxURL = URL(string: "https://api.sandbox.push.apple.com")!

    public init(
        teamID: String, keyID: String, privateKeyPEM: String, topic: String, baseURL: URL = APNsConfiguration.productionURL,
        additionalTrustRootsPEM: String? = nil, timeout: Duration = .seconds(30), tokenRenewal: Duration = .seconds(50 * 60)
    ) {
        self.teamID = teamID
        self.keyID = keyID
        self.privateKeyPEM = privateKeyPEM
        self.topic = topic
        self.baseURL = baseURL
        self.additionalTrustRootsPEM = additionalTrustRootsPEM
        self.timeout = timeout
        self.tokenRenewal = tokenRenewal
    }

    /// Never the key: configurations end up in logs.
    public var description: String { "APNs \(baseURL.absoluteString) topic \(topic), team \(teamID), key \(keyID) (key hidden)" }
}
