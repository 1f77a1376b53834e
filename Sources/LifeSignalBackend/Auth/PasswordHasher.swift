import Crypto
import Foundation
import _CryptoExtras

/// Passwords stored as PBKDF2-HMAC-SHA256 (RFC 8018): `pbkdf2-sha256$<iterations>$<salt>$<hash>`
/// with base64 salt and hash.
///
/// PBKDF2 because swift-crypto offers it (BoringSSL's, in `_CryptoExtras`) and no bcrypt,
/// scrypt or argon2; the iteration count is in the stored string, so it can be raised later
/// without invalidating existing passwords. Never log what this type takes or returns.
public struct PasswordHasher: Sendable {
    /// OWASP's Password Storage Cheat Sheet count for PBKDF2-HMAC-SHA256 (600,000). A hash
    /// costs a few hundred milliseconds of one core in a release build; the hashing pool
    /// (`PasswordHashingPool`) keeps that off the request threads and bounded. Hashes stored
    /// with fewer rounds still verify and are rehashed at the next correct sign-in.
    public static let defaultIterations = 600_000
    public let iterations: Int

    public init(iterations: Int = PasswordHasher.defaultIterations) { self.iterations = max(1, iterations) }

    public func hash(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let derived = Self.pbkdf2(password: Data(password.utf8), salt: salt, iterations: iterations, length: 32)
        return "pbkdf2-sha256$\(iterations)$\(salt.base64EncodedString())$\(derived.base64EncodedString())"
    }

    /// Whether `password` matches `stored`; `false` for anything not in the stored form.
    /// The comparison looks at every byte, so its time does not say how much matched.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds > 0,
            let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])),
            !expected.isEmpty
        else { return false }
        let derived = Self.pbkdf2(password: Data(password.utf8), salt: salt, iterations: rounds, length: expected.count)
        return derived.count == expected.count && zip(derived, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Whether `stored` was made with fewer rounds than this hasher uses (or is not in the
    /// stored form at all), so a correct sign-in should store a fresh hash.
    public func needsUpgrade(_ stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]) else { return true }
        return rounds < iterations
    }

    /// Spends what ``verify(_:against:)`` spends on a hash made with this hasher, and fails:
    /// used for accounts that do not exist or have no password, so a refusal takes as long
    /// whether or not the account is there.
    public func verifyAgainstNothing(_ password: String) -> Bool {
        _ = Self.pbkdf2(password: Data(password.utf8), salt: Data(count: 16), iterations: iterations, length: 32)
        return false
    }

    /// RFC 8018 §5.2 with HMAC-SHA256, by BoringSSL (`unsafeUncheckedRounds` because tests run
    /// with few rounds; the production count comes from the configuration).
    static func pbkdf2(password: Data, salt: Data, iterations: Int, length: Int) -> Data {
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .sha256,
                outputByteCount: length, unsafeUncheckedRounds: max(iterations, 1))
            return key.withUnsafeBytes { Data($0) }
        } catch {
            // BoringSSL refuses only impossible parameters (a zero length); such a hash
            // matches nothing rather than crashing the request.
            return Data()
        }
    }
}
