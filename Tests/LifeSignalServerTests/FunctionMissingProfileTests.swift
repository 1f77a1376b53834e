import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// A signed-in person whose profile row is gone (deleted through `/rest/v1/users`, as the fuzz
/// test did): functions that write rows referring to it answer 4xx, never 500, and write nothing.
@Suite("Functions for a person without a profile row")
struct FunctionMissingProfileTests {
    @Test("writes that refer to the missing profile are 404 not_found (or another 4xx), and nothing is written", arguments: Engine.allCases)
    func missingProfile(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let session = try await test.signIn("+15550004321")
        try await test.backend.database.query(SQL("DELETE FROM users WHERE id = $1", bindings: [.uuid(session.user.id.rawValue)]))
        let calls: [(String, [String: any Sendable])] = [
            ("register-push-token", ["token": "tok-1", "platform": "fcm"]),
            ("update-delivery-preferences", ["sms": "all"]),
            ("trigger-alert", [:]),
            ("check-in", [:]),
        ]
        for (name, body) in calls {
            let reply = try await server.json("POST", "/functions/v1/\(name)", bearer: session.accessToken, body)
            #expect((400..<500).contains(reply.status), "\(name): \(reply.status) \(reply.text)")
        }
        for table in ["push_tokens", "delivery_preferences", "alerts"] {
            #expect(try await test.count(table) == 0, "\(table)")
        }
    }
}
