import FirebaseREST
import Foundation
import JWTKit

/// A Google service account's key file (the JSON the Firebase console downloads).
public struct ServiceAccount: Decodable, Sendable, Hashable {
    public var projectID: String
    public var clientEmail: String
    public var privateKey: String
    public var tokenURI: String

    enum CodingKeys: String, CodingKey {
        case projectID = "project_id"
        case clientEmail = "client_email"
        case privateKey = "private_key"
        case tokenURI = "token_uri"
    }

    public init(projectID: String, clientEmail: String, privateKey: String, tokenURI: String = "https://oauth2.googleapis.com/token") {
        self.projectID = projectID
        self.clientEmail = clientEmail
        self.privateKey = privateKey
        self.tokenURI = tokenURI
    }

    public static func load(from url: URL) throws -> ServiceAccount {
        try JSONDecoder().decode(ServiceAccount.self, from: Data(contentsOf: url))
    }
}

/// OAuth access tokens for FCM from a service account: an RS256-signed JWT exchanged at the
/// token URI (the JWT bearer grant), cached until five minutes before it expires. One
/// exchange at a time, however many sends ask at once.
public actor ServiceAccountTokenProvider: AccessTokenProvider {
    public enum Failure: Error, Sendable, Hashable {
        case invalidPrivateKey
        case invalidTokenURI(String)
        case exchangeFailed(status: Int, body: String)
    }

    public static let messagingScope = "https://www.googleapis.com/auth/firebase.messaging"

    let account: ServiceAccount
    let transport: any FirebaseHTTPTransport
    let now: @Sendable () -> Date
    private var cached: (token: String, expiresAt: Date)?
    private var inFlight: Task<(String, Date), any Error>?

    public init(account: ServiceAccount, transport: any FirebaseHTTPTransport = FirebaseURLSessionTransport(), now: @escaping @Sendable () -> Date = Date.init)
    {
        self.account = account
        self.transport = transport
        self.now = now
    }

    public func accessToken() async throws -> String {
        if let cached, cached.expiresAt.timeIntervalSince(now()) > 300 { return cached.token }
        if let inFlight { return try await inFlight.value.0 }
        let task = Task { try await exchange() }
        inFlight = task
        defer { inFlight = nil }
        let (token, expiresAt) = try await task.value
        cached = (token, expiresAt)
        return token
    }

    /// The signed assertion: `{iss, scope, aud, iat, exp}` for one hour, RS256 through jwt-kit
    /// (Google's service-account keys are RSA; PKCS #1 v1.5 is what RS256 means).
    func assertion(issuedAt: Date) async throws -> String {
        guard let key = try? Insecure.RSA.PrivateKey(pem: account.privateKey) else { throw Failure.invalidPrivateKey }
        let keys = await JWTKeyCollection().add(rsa: key, digestAlgorithm: .sha256)
        let iat = Int(issuedAt.timeIntervalSince1970)
        let claims = AssertionClaims(
            iss: account.clientEmail, scope: Self.messagingScope, aud: account.tokenURI, iat: iat, exp: iat + 3600)
        return try await keys.sign(claims, header: ["typ": "JWT"])
    }

    private func exchange() async throws -> (String, Date) {
        guard let url = URL(string: account.tokenURI) else { throw Failure.invalidTokenURI(account.tokenURI) }
        let issuedAt = now()
        // The assertion is base64url and dots: nothing in it needs form encoding.
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + (try await assertion(issuedAt: issuedAt))
        let response = try await transport.send(
            FirebaseHTTPRequest(
                method: .post, url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8), timeout: .seconds(30)))
        struct Reply: Decodable {
            var access_token: String
            var expires_in: Int
        }
        guard (200..<300).contains(response.status), let reply = try? JSONDecoder().decode(Reply.self, from: response.body) else {
            throw Failure.exchangeFailed(status: response.status, body: String(decoding: response.body, as: UTF8.self))
        }
        return (reply.access_token, issuedAt.addingTimeInterval(TimeInterval(reply.expires_in)))
    }
}

/// The claims of the JWT bearer grant's assertion. jwt-kit's claim checks are not used: the
/// assertion is only signed here, and Google checks it.
struct AssertionClaims: JWTPayload {
    let iss: String
    let scope: String
    let aud: String
    let iat: Int
    let exp: Int

    func verify(using algorithm: some JWTAlgorithm) throws {}
}
