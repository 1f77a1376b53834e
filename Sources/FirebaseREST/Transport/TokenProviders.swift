/// Supplies the Firebase ID token that Firestore, Storage and callable functions send on
/// behalf of the signed-in user (security rules see it as `request.auth`).
///
/// ``FirebaseAuthSession`` conforms and refreshes the token before it expires. Returning
/// `nil` sends the request unauthenticated.
public protocol IDTokenProvider: Sendable {
    /// The current ID token, refreshed if needed, or `nil` when no user is signed in.
    func idToken() async throws -> String?
}

/// Supplies a Google OAuth 2 access token (scope `firebase.messaging`) for FCM HTTP v1.
///
/// Minting one needs an RS256-signed service-account JWT, which needs a crypto library this
/// Foundation-only module does not link; the server supplies an implementation (or a token
/// obtained from the metadata server).
public protocol AccessTokenProvider: Sendable {
    /// A valid access token.
    func accessToken() async throws -> String
}

/// A fixed ID token: for tests, scripts and the emulator (which accepts `owner`).
public struct StaticIDTokenProvider: IDTokenProvider {
    /// The token sent, or `nil` for unauthenticated requests.
    public var token: String?
    /// Creates a provider that always answers `token`.
    public init(_ token: String?) { self.token = token }
    public func idToken() async throws -> String? { token }
}

/// A fixed OAuth access token, for tests and short-lived scripts.
public struct StaticAccessTokenProvider: AccessTokenProvider {
    /// The token sent.
    public var token: String
    /// Creates a provider that always answers `token`.
    public init(_ token: String) { self.token = token }
    public func accessToken() async throws -> String { token }
}
