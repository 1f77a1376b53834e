import Foundation
import JWTKit

/// The provider token: an ES256 JWT `{"alg":"ES256","kid":<key id>}.{"iss":<team id>,"iat":<now>}`
/// signed with the `.p8` key, shared by every send and replaced once it is
/// ``APNsConfiguration/tokenRenewal`` old. Apple wants the same token reused: one per request
/// would be throttled (429 `TooManyProviderTokenUpdates`).
actor APNsProviderToken {
    private struct Claims: JWTPayload {
        let iss: String
        /// Whole seconds: Apple reads `iat` as an integer.
        let iat: Int

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private struct Issued {
        let jwt: String
        let issuedAt: Date
    }

    private let keys = JWTKeyCollection()
    private let key: ES256PrivateKey
    private let keyID: String
    private let teamID: String
    private let renewal: TimeInterval
    private let now: @Sendable () -> Date
    private var current: Issued?
    /// A signing in progress, so callers that arrive meanwhile wait for it instead of signing
    /// their own (the actor is reentrant across the `await`).
    private var signing: Task<Issued, any Error>?
    /// How many tokens were made: tests check reuse and renewal with it.
    private(set) var issuedCount = 0

    init(configuration: APNsConfiguration, now: @escaping @Sendable () -> Date) throws {
        do {
            key = try ES256PrivateKey(pem: configuration.privateKeyPEM)
        } catch {
            throw APNsError.invalidConfiguration("the signing key is not a PEM P-256 private key (.p8)")
        }
        keyID = configuration.keyID
        teamID = configuration.teamID
        renewal = TimeInterval(configuration.tokenRenewal.components.seconds)
        self.now = now
    }

    /// The token to send now: the cached one while it is younger than the renewal age.
    func token() async throws -> String {
        if let current, now().timeIntervalSince(current.issuedAt) < renewal, now() >= current.issuedAt { return current.jwt }
        return try await renew()
    }

    /// A new token, after APNs called `refused` expired; if another caller has already
    /// replaced it, that one is used, so one refusal makes one new token.
    func replace(_ refused: String) async throws -> String {
        if let current, current.jwt != refused { return current.jwt }
        return try await renew()
    }

    private func renew() async throws -> String {
        if let signing { return try await signing.value.jwt }
        let claims = Claims(iss: teamID, iat: Int(now().timeIntervalSince1970))
        let task = Task { [keys, key, keyID] in
            // Adding the key again under the same id replaces it: harmless, and it keeps the
            // collection's setup inside the one signing task.
            await keys.add(ecdsa: key, kid: JWKIdentifier(string: keyID))
            return Issued(jwt: try await keys.sign(claims, kid: JWKIdentifier(string: keyID)), issuedAt: Date(timeIntervalSince1970: TimeInterval(claims.iat)))
        }
        signing = task
        defer { signing = nil }
        let issued = try await task.value
        current = issued
        issuedCount += 1
        return issued.jwt
    }
}
