import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `NotificationClient.registerPushToken` and `sendPush` on every adapter: the token lands in
/// `push_tokens`, and a push to a contact is stored and handed to the backend's push sender.
@Suite("NotificationClient push contract", .serialized)
struct PushContractTests {
    @Test("a registered token is stored for its owner and moves with the phone", arguments: AdapterBackend.withFirebase)
    func registerToken(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let bob = harness.bobClients
        try await alice.notifications.registerPushToken("device-token-1", "apns")
        var row = try #require(try await Self.tokenRow(harness, "device-token-1"))
        #expect(try row.uuid("user_id") == harness.aliceID && row.string("platform") == "apns")

        // The phone changed hands: the token is Bob's now.
        try await bob.notifications.registerPushToken("device-token-1", "fcm")
        row = try #require(try await Self.tokenRow(harness, "device-token-1"))
        #expect(try row.uuid("user_id") == harness.bobID && row.string("platform") == "fcm")

        #expect(await ErrorCodes.of { try await alice.notifications.registerPushToken("device-token-2", "pager") } == "invalid_argument")
        #expect(await ErrorCodes.of { try await alice.notifications.registerPushToken("  ", "fcm") } == "invalid_argument")
        #expect(try await harness.test.count("push_tokens") == 1)
    }

    @Test("a push reaches a contact's centre and devices; strangers are refused", arguments: AdapterBackend.withFirebase)
    func sendPush(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients
        let bob = harness.bobClients
        let pushes = try #require(harness.test.backend.configuration.pushSender as? RecordingPushSender)
        try await bob.notifications.registerPushToken("bob-phone", "fcm")

        // Not yet linked: Alice may not notify Bob.
        #expect(await ErrorCodes.of { _ = try await alice.notifications.sendPush(UserID(harness.bobID), "Hi", "Are you OK?") } == "forbidden")
        #expect(await pushes.messages(to: "bob-phone").isEmpty)

        let code = try await alice.contacts.qrCode().id
        _ = try await bob.contacts.addByQRCode(code, .responder)
        await pushes.reset()
        let id = try await alice.notifications.sendPush(UserID(harness.bobID), "Hi", "Are you OK?")
        let sent = await pushes.messages(to: "bob-phone")
        #expect(sent.count == 1)
        #expect(sent.first?.title == "Hi" && sent.first?.body == "Are you OK?")
        #expect(sent.first?.data["notificationId"] == id.uuidString.lowercased())
        #expect(sent.first?.data["contactId"] == harness.aliceID.uuidString.lowercased())

        let listed = try #require(try await bob.notifications.notifications().first { $0.id == id })
        #expect(listed.type == .system && listed.contactID == UserID(harness.aliceID) && !listed.isRead)
        #expect(await ErrorCodes.of { _ = try await alice.notifications.sendPush(UserID(harness.bobID), " ", "x") } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await alice.notifications.sendPush(UserID(UUID()), "Hi", "x") } == "not_found")
    }

    static func tokenRow(_ harness: AdapterHarness, _ token: String) async throws -> SQLRow? {
        try await harness.test.backend.database.query("SELECT user_id, platform FROM push_tokens WHERE token = \(token)").first
    }
}
