import Crypto
import Foundation
import Hummingbird
import JWTKit
import LifeSignalBackend
import LifeSignalDomain
import Logging
import _CryptoExtras

/// An RSA signing key as Firebase's `securetoken` service holds one: its `kid`, the private
/// key that signs ID tokens, and what the key server publishes for it.
public struct FirebaseSigningKey: Sendable {
    public let kid: String
    let privateKey: _RSA.Signing.PrivateKey
    /// The self-signed certificate Google's x509 document carries (only the fixed keys have one).
    let certificatePEM: String?

    /// The two fixed keys (`FirebaseStandInKeyMaterial`), publishable in either format.
    public static func fixedA(kid: String = "key-a") throws -> FirebaseSigningKey {
        try FirebaseSigningKey(
            kid: kid, privateKey: .init(pemRepresentation: FirebaseStandInKeyMaterial.privateKeyA),
            certificatePEM: FirebaseStandInKeyMaterial.certificateA)
    }

    public static func fixedB(kid: String = "key-b") throws -> FirebaseSigningKey {
        try FirebaseSigningKey(
            kid: kid, privateKey: .init(pemRepresentation: FirebaseStandInKeyMaterial.privateKeyB),
            certificatePEM: FirebaseStandInKeyMaterial.certificateB)
    }

    /// A fresh key, publishable only as a JWK.
    public static func generated(kid: String) throws -> FirebaseSigningKey {
        try FirebaseSigningKey(kid: kid, privateKey: .init(keySize: .bits2048), certificatePEM: nil)
    }

    /// The public key as a JWKS entry.
    var jwk: [String: String] {
        get throws {
            let (modulus, exponent) = try Insecure.RSA.PublicKey(backing: privateKey.publicKey).getKeyPrimitives()
            return ["kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid, "n": Base64URL.encode(modulus), "e": Base64URL.encode(exponent)]
        }
    }

    /// The public key's PEM (what an attacker would use as an HMAC secret).
    public var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }

    /// A token of `claims` with `header`, signed RS256 by this key (or with no signature for
    /// `alg: none`, or HMAC-SHA256 keyed by `hmacSecret`): forgeries are made the same way as
    /// real tokens, so the only difference is the one a test means.
    public func sign(_ claims: [String: any Sendable], header: [String: String]? = nil, hmacSecret: String? = nil) throws -> String {
        let header = header ?? ["alg": "RS256", "kid": kid, "typ": "JWT"]
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: .sortedKeys)) + "."
            + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims, options: .sortedKeys))
        if header["alg"] == "none" { return input + "." }
        if let hmacSecret {
            let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: SymmetricKey(data: Data(hmacSecret.utf8)))
            return input + "." + Base64URL.encode(Data(mac))
        }
        let signature = try privateKey.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }
}

/// A Firebase project's ID tokens, as `securetoken.google.com` issues them.
public struct FirebaseTokenIssuer: Sendable {
    public let projectID: String
    public init(projectID: String) { self.projectID = projectID }

    /// Claims of a real ID token for `uid`, issued at `now` for an hour; tests change one.
    public func claims(
        uid: String, now: Date, phone: String? = nil, email: String? = nil,
        provider: String = "phone"
    ) -> [String: any Sendable] {
        let iat = Int(now.timeIntervalSince1970)
        var claims: [String: any Sendable] = [
            "iss": "https://securetoken.google.com/\(projectID)", "aud": projectID, "sub": uid, "user_id": uid,
            "iat": iat, "exp": iat + 3600, "auth_time": iat,
            "firebase": ["sign_in_provider": provider, "identities": [String: [String]]()] as [String: any Sendable],
        ]
        if let phone { claims["phone_number"] = phone }
        if let email {
            claims["email"] = email
            claims["email_verified"] = true
        }
        return claims
    }
}

/// A key server on 127.0.0.1 publishing signing keys as Google does — a JWKS or the x509
/// document — with a `Cache-Control: max-age`, and able to go down (503) or hang.
public final class FirebaseKeyServer: @unchecked Sendable {
    public enum Format: Sendable { case jwks, x509 }
    public enum Behaviour: Sendable { case serving, failing, hanging }

    private let lock = NSLock()
    private var published: [FirebaseSigningKey]
    private var format: Format
    private var maxAge: Int
    private var behaviour = Behaviour.serving
    private var requests = 0
    /// Sign-in by phone (``enableSignIn(issuer:now:codes:)``); off until a test turns it on.
    var signIn: (issuer: FirebaseTokenIssuer, now: @Sendable () -> Date, codes: [String: String])? {
        get { lock.withLock { signInState } }
        set { lock.withLock { signInState = newValue } }
    }
    private var signInState: (issuer: FirebaseTokenIssuer, now: @Sendable () -> Date, codes: [String: String])?
    /// The first published key signs the ID tokens handed out at sign-in.
    var signingKey: FirebaseSigningKey? { lock.withLock { published.first } }
    public let port: Int
    private let task: Task<Void, any Error>

    public var url: URL { URL(string: "http://127.0.0.1:\(port)/keys")! }
    /// How many times the keys were asked for.
    public var requestCount: Int { lock.withLock { requests } }

    public func publish(_ keys: [FirebaseSigningKey], maxAge: Int? = nil) {
        lock.withLock {
            published = keys
            if let maxAge { self.maxAge = maxAge }
        }
    }

    public func set(_ behaviour: Behaviour) { lock.withLock { self.behaviour = behaviour } }

    public static func start(publishing keys: [FirebaseSigningKey], format: Format = .jwks, maxAge: Int = 3600) async throws -> FirebaseKeyServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let box = Box()
        let router = Router()
        router.get("keys") { _, _ -> Response in
            guard let server = box.server else { return Response(status: .serviceUnavailable) }
            return try await server.answer()
        }
        // Identity Toolkit as the Auth emulator serves it (`FirebaseSignInStandIn.swift`).
        router.post("identitytoolkit.googleapis.com/v1/:method") { request, context -> Response in
            guard let server = box.server, let method = context.parameters.get("method") else { return Response(status: .serviceUnavailable) }
            let body = try await request.body.collect(upTo: 1 << 16)
            return try server.identityToolkit(method, body: Data(buffer: body))
        }
        var logger = Logger(label: "lifesignal.test-firebase-keys")
        // Stopping mid-request (the hanging case) is logged as an error by the server; it is not one here.
        logger.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        let task = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw TestEnvironmentError(description: "key server did not start") }
        let server = FirebaseKeyServer(port: port, task: task, keys: keys, format: format, maxAge: maxAge)
        box.server = server
        return server
    }

    private init(port: Int, task: Task<Void, any Error>, keys: [FirebaseSigningKey], format: Format, maxAge: Int) {
        self.port = port
        self.task = task
        self.published = keys
        self.format = format
        self.maxAge = maxAge
    }

    public func stop() async {
        task.cancel()
        _ = try? await task.value
    }

    private func answer() async throws -> Response {
        let (keys, format, maxAge, behaviour) = lock.withLock {
            requests += 1
            return (published, self.format, self.maxAge, self.behaviour)
        }
        switch behaviour {
        case .failing: return Response(status: .serviceUnavailable)
        case .hanging:
            // Holds the request open until the test ends (the server's task is cancelled).
            try await Task.sleep(for: .seconds(3600))
            return Response(status: .serviceUnavailable)
        case .serving:
            let document: Any =
                switch format {
                case .jwks: ["keys": try keys.map { try $0.jwk }]
                case .x509: Dictionary(uniqueKeysWithValues: keys.map { ($0.kid, $0.certificatePEM ?? "") })
                }
            let body = try JSONSerialization.data(withJSONObject: document)
            return Response(
                status: .ok,
                headers: [.contentType: "application/json", .cacheControl: "public, max-age=\(maxAge), must-revalidate, no-transform"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    /// Lets the route reach the server object made after the application.
    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var value: FirebaseKeyServer?
        var server: FirebaseKeyServer? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
}
