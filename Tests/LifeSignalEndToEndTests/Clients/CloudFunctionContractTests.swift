import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `CloudFunctionClient` on every adapter: raw JSON in and out, with the backend's answers
/// and refusals the same whichever way the call travels.
@Suite("CloudFunctionClient contract", .serialized)
struct CloudFunctionContractTests {
    @Test("a raw call runs the function as the signed-in person and returns its JSON", arguments: AdapterBackend.withFirebase)
    func rawCall(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let functions = harness.aliceClients.functions
        let reply = try await functions.call("register-push-token", Data(#"{"token":"raw-token","platform":"web"}"#.utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: reply) as? [String: Any])
        #expect(object["success"] as? Bool == true)
        let row = try #require(
            try await harness.test.backend.database.query(
                "SELECT user_id, platform FROM push_tokens WHERE token = \("raw-token")"
            ).first)
        #expect(try row.uuid("user_id") == harness.aliceID && row.string("platform") == "web")

        // An empty body is `{}`; the typed convenience decodes the reply.
        let contacts = try await functions.call("get-contacts", Data())
        #expect((try JSONSerialization.jsonObject(with: contacts) as? [String: Any])?["contacts"] is [Any])
        let typed = try await functions.call("get-contacts", [String: String](), as: GetContactsResponse.self)
        #expect(typed.contacts.isEmpty)
    }

    @Test("unknown functions are not found; bodies the function cannot read are invalid", arguments: AdapterBackend.withFirebase)
    func refusals(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let functions = harness.aliceClients.functions
        #expect(await ErrorCodes.of { _ = try await functions.call("no-such-function", Data("{}".utf8)) } == "not_found")
        #expect(await ErrorCodes.of { _ = try await functions.call("register-push-token", Data("not json".utf8)) } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await functions.call("register-push-token", Data(#"{"token":5}"#.utf8)) } == "invalid_argument")
        // A function's own refusal comes back as the error it raised.
        #expect(
            await ErrorCodes.of {
                _ = try await functions.call("lookup-qr-code", Data(#"{"qrCodeId":"\#(UUID().uuidString.lowercased())"}"#.utf8))
            } == "not_found")
        #expect(try await harness.test.count("push_tokens") == 0)
    }
}
