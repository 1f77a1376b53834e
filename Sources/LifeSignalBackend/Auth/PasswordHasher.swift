import Crypto
import Foundation

/// Passwords stored as PBKDF2-HMAC-SHA256 (RFC 8018): `pbkdf2-sha256$<iterations>$<salt>$<hash>`
/// with base64 salt and hash.
///
/// PBKDF2 because swift-crypto gives HMAC but no bcrypt or scrypt; the iteration count is in
/// the stored string, so it can be raised later without invalidating existing passwords.
public struct PasswordHasher: Sendable {
    /// OWASP's floor for PBKDF2-HMAC-SHA256 is far higher for offline attacks on stolen hashes;
    /// 100,000 keeps a sign-in under ~50 ms on these 2-core machines (release build).
    public static let defaultIterations = 100_000
    public let iterations: Int

    public init(iterations: Int = PasswordHasher.defaultIterations) { self.iterations = max(1, iterations) }

    public func hash(_ password: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let derived = Self.pbkdf2(password: Data(password.utf8), salt: salt, iterations: iterations, length: 32)
        return "pbkdf2-sha256$\(iterations)$\(salt.base64EncodedString())$\(derived.base64EncodedString())"
    }

    /// Whether `password` matches `stored`; `false` for anything not in the stored form.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$")
        guard parts.count == 4, parts[0] == "pbkdf2-sha256", let rounds = Int(parts[1]), rounds > 0,
              let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])) else { return false }
        let derived = Self.pbkdf2(password: Data(password.utf8), salt: salt, iterations: rounds, length: expected.count)
        return zip(derived, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0 && derived.count == expected.count
    }

    /// RFC 8018 §5.2 with HMAC-SHA256. The keyed HMAC state is built once and copied for
    /// each round, which halves the work of re-keying every time.
    static func pbkdf2(password: Data, salt: Data, iterations: Int, length: Int) -> Data {
        let keyed = HMAC<SHA256>(key: SymmetricKey(data: password))
        var output = Data()
        var block: UInt32 = 1
        while output.count < length {
            var first = keyed
            first.update(data: salt)
            first.update(data: withUnsafeBytes(of: block.bigEndian) { Data($0) })
            var u = Data(first.finalize())
            var t = u
            for _ in 1..<max(iterations, 1) {
                var round = keyed
                round.update(data: u)
                u = Data(round.finalize())
                for index in 0..<t.count { t[index] ^= u[index] }
            }
            output.append(t)
            block += 1
        }
        return output.prefix(length)
    }
}
