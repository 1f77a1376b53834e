import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291) in the `aes128gcm` content coding (RFC 8188):
/// one record, keyed by ECDH between a key pair made for this message alone and the
/// subscription's `p256dh`, bound to its `auth` secret.
struct WebPushEncryption {
    /// The record size written in the header: the push services' 4096-byte limit.
    static let recordSize = 4096
    /// salt (16) || rs (4) || idlen (1) || keyid: the 65-byte uncompressed ephemeral public key.
    static let headerBytes = 16 + 4 + 1 + 65
    static let tagBytes = 16
    /// A push service takes bodies of at most 4096 bytes.
    static let maximumBodyBytes = 4096
    /// 4096 − 86 (header) − 16 (tag) − 1 (the last record's delimiter) = 3993.
    static let maximumPlaintextBytes = maximumBodyBytes - headerBytes - tagBytes - 1

    private let salt: Data
    private let ephemeralKey: P256.KeyAgreement.PrivateKey

    /// A fresh salt and key pair: what every message gets.
    init() {
        var generator = SystemRandomNumberGenerator()
        self.init(salt: Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }), ephemeralKey: P256.KeyAgreement.PrivateKey())
    }

    /// Given ones, for RFC 8291's worked example: never reuse either for two messages.
    init(salt: Data, ephemeralKey: P256.KeyAgreement.PrivateKey) {
        self.salt = salt
        self.ephemeralKey = ephemeralKey
    }

    /// The request body: header || AES-128-GCM(CEK, NONCE, plaintext || 0x02).
    ///
    /// - Throws: ``WebPushError/payloadTooLarge(bytes:limit:)``, or
    ///   ``WebPushError/invalidSubscription(_:)`` when the keys do not agree (a subscription
    ///   made through its initializer always does).
    func encrypt(_ plaintext: Data, for subscription: WebPushSubscription) throws(WebPushError) -> Data {
        guard plaintext.count <= Self.maximumPlaintextBytes else {
            throw .payloadTooLarge(bytes: plaintext.count, limit: Self.maximumPlaintextBytes)
        }
        guard salt.count == 16 else { throw .invalidMessage("a salt of 16 bytes, not \(salt.count)") }
        let serverPublic = ephemeralKey.publicKey.x963Representation
        let sealed: AES.GCM.SealedBox
        do {
            let userAgentKey = try P256.KeyAgreement.PublicKey(x963Representation: subscription.userAgentPublicKey)
            let ecdhSecret = try ephemeralKey.sharedSecretFromKeyAgreement(with: userAgentKey)
            // IKM = HKDF(salt = auth, ikm = ecdh_secret, info = "WebPush: info" 0x00 ua_public as_public, 32).
            let keyInfo = Data("WebPush: info\0".utf8) + subscription.userAgentPublicKey + serverPublic
            let inputKey = ecdhSecret.hkdfDerivedSymmetricKey(using: SHA256.self, salt: subscription.authSecret, sharedInfo: keyInfo, outputByteCount: 32)
            let contentKey = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: inputKey, salt: salt, info: Data("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
            let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: inputKey, salt: salt, info: Data("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
            var record = plaintext
            record.append(0x02)
            sealed = try AES.GCM.seal(record, using: contentKey, nonce: AES.GCM.Nonce(data: nonce.withUnsafeBytes { Data($0) }))
        } catch {
            throw .invalidSubscription("the message cannot be encrypted for this subscription: \(error)")
        }
        var body = Data(capacity: Self.headerBytes + plaintext.count + 1 + Self.tagBytes)
        body.append(salt)
        withUnsafeBytes(of: UInt32(Self.recordSize).bigEndian) { body.append(contentsOf: $0) }
        body.append(UInt8(serverPublic.count))
        body.append(serverPublic)
        body.append(sealed.ciphertext)
        body.append(sealed.tag)
        return body
    }
}
