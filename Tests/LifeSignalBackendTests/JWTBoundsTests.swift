import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import Testing

/// Numbers in a token signed with the project secret are still input: an `exp` at the edge of
/// `Int` is a token that does not expire, never a trap.
@Suite("JWT number bounds")
struct JWTBoundsTests {
    @Test("exp at Int.max and Int.min is judged without overflow")
    func extremeExpiry() async throws {
        let signer = JWTSigner(secret: "test-secret-with-at-least-32-characters!")
        var forever = TokenClaims(role: "anon")
        forever.exp = Int.max
        #expect(try await signer.verify(signer.sign(forever), now: Date()).exp == Int.max)
        var ancient = TokenClaims(role: "anon")
        ancient.exp = Int.min
        await #expect(throws: TokenError.expired) { try await signer.verify(signer.sign(ancient), now: Date()) }
    }
}
