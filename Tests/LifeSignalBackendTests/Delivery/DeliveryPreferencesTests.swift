import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Channel choices for a person whose profile row is gone (found by the fuzz test: a foreign
/// key failure answered 500).
@Suite("Delivery preferences without a profile")
struct DeliveryPreferencesTests {
    @Test("update-delivery-preferences for a token whose users row is gone is not_found, and writes nothing", arguments: Engine.allCases)
    func missingProfile(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let session = try await test.signIn("+15550002468")
        try await test.backend.database.query(SQL("DELETE FROM users WHERE id = $1", bindings: [.uuid(session.user.id.rawValue)]))
        for body in [#"{}"#, #"{"sms": "all"}"#] {
            await #expect(throws: DomainError.notFound("User \(session.user.id)")) {
                _ = try await test.backend.functions.call("update-delivery-preferences", caller: .user(session.user.id), body: Data(body.utf8))
            }
        }
        #expect(try await test.count("delivery_preferences") == 0)
    }
}
