import Crypto
import FirebaseREST
import Foundation
import _CryptoExtras

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

    /// The signed assertion: `{iss, scope, aud, iat, exp}` for one hour.
    func assertion(issuedAt: Date) throws -> String {
        guard let key = try? _RSA.Signing.PrivateKey(pemRepresentation: account.privateKey) else { throw Failure.invalidPrivateKey }
        let iat = Int(issuedAt.timeIntervalSince1970)
        let header = Self.base64URL(Data(#"{"alg":"RS256","typ":"JWT"}"#.utf8))
        let claims: [String: String] = [
            "iss": account.clientEmail, "scope": Self.messagingScope, "aud": account.tokenURI,
        ]
        var payloadText = "{" + claims.keys.sorted().map { "\"\($0)\":\"\(claims[$0] ?? "")\"" }.joined(separator: ",")
        payloadText += ",\"iat\":\(iat),\"exp\":\(iat + 3600)}"
        let input = header + "." + Self.base64URL(Data(payloadText.utf8))
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + Self.base64URL(signature.rawRepresentation)
    }

    private func exchange() async throws -> (String, Date) {
        guard let url = URL(string: account.tokenURI) else { throw Failure.invalidTokenURI(account.tokenURI) }
        let issuedAt = now()
        // The assertion is base64url and dots: nothing in it needs form encoding.
        let form = "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=" + (try assertion(issuedAt: issuedAt))
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

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
