import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Testing

@testable import LifeSignalBackend

@Suite("Password hashing")
struct PasswordHasherTests {
    @Test("PBKDF2-HMAC-SHA256 matches the published test vectors")
    func vectors() {
        // RFC 7914 §11 (PBKDF2-HMAC-SHA256, "passwd"/"salt", 1 round) and the widely
        // published "password"/"salt" vectors for 1 and 4096 rounds.
        let hex = { (data: Data) in data.map { String(format: "%02x", $0) }.joined() }
        #expect(
            hex(PasswordHasher.pbkdf2(password: Data("passwd".utf8), salt: Data("salt".utf8), iterations: 1, length: 64))
                == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
        #expect(
            hex(PasswordHasher.pbkdf2(password: Data("password".utf8), salt: Data("salt".utf8), iterations: 1, length: 32))
                == "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b")
        #expect(
            hex(PasswordHasher.pbkdf2(password: Data("password".utf8), salt: Data("salt".utf8), iterations: 4096, length: 32))
                == "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a")
    }

    @Test("a stored hash verifies its password only, and junk never verifies")
    func roundTrip() {
        let hasher = PasswordHasher(iterations: 1000)
        let stored = hasher.hash("correct horse")
        #expect(stored.hasPrefix("pbkdf2-sha256$1000$"))
        #expect(hasher.verify("correct horse", against: stored))
        #expect(!hasher.verify("correct horse!", against: stored))
        #expect(hasher.hash("correct horse") != stored, "each hash has its own salt")
        #expect(!hasher.verify("x", against: "plain"))
        #expect(!hasher.verify("x", against: "pbkdf2-sha256$0$AAAA$AAAA"))
        #expect(!hasher.verify("x", against: "pbkdf2-sha256$1000$AAAA$"))
        #expect(!hasher.verifyAgainstNothing("correct horse"))
    }

    @Test("the configured iteration count is what gets stored, and a count of zero becomes one")
    func iterations() {
        #expect(PasswordHasher().hash("p").hasPrefix("pbkdf2-sha256$600000$"), "OWASP's count for PBKDF2-HMAC-SHA256")
        #expect(PasswordHasher(iterations: 0).iterations == 1)
        let stored = PasswordHasher(iterations: 1000).hash("same")
        #expect(PasswordHasher(iterations: 5).verify("same", against: stored), "the stored count wins over the hasher's")
    }
}
