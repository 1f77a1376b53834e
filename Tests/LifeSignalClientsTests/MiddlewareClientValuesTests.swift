import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

/// The values of the push endpoints, ``CloudFunctionClient`` and ``FileStorageClient``.
@Suite("Push, cloud function and file storage client values")
struct MiddlewareClientValuesTests {
    static let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000c001") ?? UUID())

    @Test("the test values fail any call a test did not override")
    func testValuesAreUnimplemented() async throws {
        await withKnownIssue { try await NotificationClient.testValue.registerPushToken("t", "fcm") }
        await withKnownIssue { _ = try await NotificationClient.testValue.sendPush(Self.me, "Hi", "") }
        await withKnownIssue { _ = try await CloudFunctionClient.testValue.call("check-in", Data()) }
        await withKnownIssue { _ = try await FileStorageClient.testValue.upload("avatars", "a/b", Data([1]), "image/png") }
        await withKnownIssue { _ = try await FileStorageClient.testValue.downloadURL("avatars", "a/b") }
    }

    @Test("the preview pushes: platforms are checked, a push to myself lands in my centre")
    func previewPush() async throws {
        let client = NotificationClient.previewValue
        try await client.registerPushToken("device", "apns")
        await #expect(throws: DomainError.self) { try await client.registerPushToken("device", "pager") }
        let before = try await client.notifications().count
        let id = try await client.sendPush(Self.me, "Note to self", "Buy milk")
        let first = try await client.notifications().first
        #expect(first?.id == id && first?.type == .system && first?.title == "Note to self")
        _ = try await client.sendPush(UserID(UUID()), "Hi", "")
        #expect(try await client.notifications().count == before + 1)
        await #expect(throws: DomainError.self) { _ = try await client.sendPush(Self.me, "  ", "") }
    }

    @Test("the preview functions answer a few names in the backend's shapes")
    func previewFunctions() async throws {
        let client = CloudFunctionClient.previewValue
        struct Success: Decodable { var success: Bool }
        #expect(try await client.call("register-push-token", ["token": "t"], as: Success.self).success)
        await #expect(throws: DomainError.notFound("Function \"nope\"")) { _ = try await client.call("nope", Data()) }
        await #expect(throws: DomainError.self) { _ = try await client.call("check-in", Data("{".utf8)) }
        let reply = try await client.call("get-contacts", Data())
        #expect((try JSONSerialization.jsonObject(with: reply) as? [String: Any])?["contacts"] is [Any])
    }

    @Test("the preview files keep bytes in memory with the avatars bucket's rules")
    func previewFiles() async throws {
        let client = FileStorageClient.previewValue
        let mine = "\(Self.me)/avatar"
        #expect(try await client.download("avatars", mine).isEmpty == false)
        #expect(try await client.upload("avatars", "x/pic.png", Data([1, 2]), "image/png") == "x/pic.png")
        #expect(try await client.download("avatars", "x/pic.png") == Data([1, 2]))
        #expect(try await client.downloadURL("avatars", "x/pic.png").absoluteString.hasSuffix("avatars/x/pic.png"))
        await #expect(throws: DomainError.self) { _ = try await client.upload("avatars", "x/a.txt", Data([1]), "text/plain") }
        await #expect(throws: DomainError.self) { _ = try await client.upload("other", "x/a.png", Data([1]), "image/png") }
        try await client.delete("avatars", "x/pic.png")
        await #expect(throws: DomainError.notFound("File x/pic.png")) { _ = try await client.download("avatars", "x/pic.png") }
        await #expect(throws: DomainError.self) { try await client.delete("avatars", "x/pic.png") }
    }
}
