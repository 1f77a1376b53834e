import Crypto
import Foundation

/// The application server's VAPID key (RFC 8292): a P-256 signing key. Its public half is the
/// `applicationServerKey` the page passes to `pushManager.subscribe`, and every subscription
/// made with it only takes messages whose VAPID token this key signed, so it is kept for as
/// long as the subscriptions are.
public struct WebPushVAPIDKey: Sendable, CustomStringConvertible {
    public let privateKey: P256.Signing.PrivateKey

    public init(_ privateKey: P256.Signing.PrivateKey) {
        self.privateKey = privateKey
    }

    /// A new random key (to be stored: subscriptions are bound to it).
    public static func generate() -> WebPushVAPIDKey {
        WebPushVAPIDKey(P256.Signing.PrivateKey())
    }

    /// The private key as `web-push generate-vapid-keys` prints it: the 32-byte scalar,
    /// base64url (padding accepted).
    ///
    /// - Throws: ``WebPushError/invalidConfiguration(_:)``.
    public init(base64URLPrivateKey text: String) throws(WebPushError) {
        guard let scalar = WebPushBase64URL.decode(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .invalidConfiguration("the VAPID private key is not base64url")
        }
        guard scalar.count == 32 else {
            throw .invalidConfiguration("the VAPID private key has \(scalar.count) bytes, not the 32 of a P-256 scalar")
        }
        do {
            privateKey = try P256.Signing.PrivateKey(rawRepresentation: scalar)
        } catch {
            throw .invalidConfiguration("the VAPID private key is not a valid P-256 scalar")
        }
    }

    /// A PEM P-256 private key: PKCS#8 (`BEGIN PRIVATE KEY`, what `py_vapid`/`vapid --gen`
    /// writes) or SEC 1 (`BEGIN EC PRIVATE KEY`, what `openssl ecparam -genkey` writes).
    ///
    /// - Throws: ``WebPushError/invalidConfiguration(_:)``.
    public init(pem: String) throws(WebPushError) {
        do {
            privateKey = try P256.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw .invalidConfiguration("the VAPID key is not a PEM P-256 private key")
        }
    }

    /// The private key's 32-byte scalar, base64url: what ``init(base64URLPrivateKey:)`` reads.
    /// A secret: store it as one.
    public var base64URLPrivateKey: String { WebPushBase64URL.encode(privateKey.rawRepresentation) }

    /// The public key, the 65-byte uncompressed point, base64url: the page's
    /// `applicationServerKey`, and the `k` of the `Authorization` header.
    public var publicKeyBase64URL: String { WebPushBase64URL.encode(privateKey.publicKey.x963Representation) }

    /// Never the private key: keys end up in logs.
    public var description: String { "VAPID key \(publicKeyBase64URL) (private key hidden)" }

    /// A VAPID token (RFC 8292 §2): an ES256 JWS over `{"aud","exp","sub"}` (keys sorted, as
    /// some push services want), its signature the raw 64-byte `r || s`.
    func token(audience: String, expires: Date, subject: String) throws(WebPushError) -> String {
        struct Claims: Encodable {
            let aud: String
            let exp: Int
            let sub: String
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let claims: Data
        do {
            claims = try encoder.encode(Claims(aud: audience, exp: Int(expires.timeIntervalSince1970), sub: subject))
        } catch {
            throw .invalidConfiguration("the VAPID claims cannot be encoded: \(error)")
        }
        let signingInput = WebPushBase64URL.encode(Data(#"{"typ":"JWT","alg":"ES256"}"#.utf8)) + "." + WebPushBase64URL.encode(claims)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try privateKey.signature(for: Data(signingInput.utf8))
        } catch {
            throw .invalidConfiguration("the VAPID token cannot be signed: \(error)")
        }
        return signingInput + "." + WebPushBase64URL.encode(signature.rawRepresentation)
    }
}
