import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `FileStorageClient` on every adapter, over the `avatars` bucket: bytes read back, owners
/// write only their own folder, anyone reads, refusals in the domain's words.
@Suite("FileStorageClient contract", .serialized)
struct FileStorageContractTests {
    static let png = TestImages.png(width: 3, height: 3)

    @Test("upload, read back, overwrite, link, delete", arguments: AdapterBackend.withFirebase)
    func lifecycle(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients.files
        let bob = harness.bobClients.files
        let path = "\(harness.aliceID.uuidString.lowercased())/photos/first.png"
        #expect(try await alice.upload("avatars", path, Self.png, "image/png") == path)
        #expect(try await alice.download("avatars", path) == Self.png)
        // Public read: Bob sees it too.
        #expect(try await bob.download("avatars", path) == Self.png)

        let second = TestImages.png(width: 3, height: 3, shade: 9)
        _ = try await alice.upload("avatars", path, second, "image/png")
        #expect(try await alice.download("avatars", path) == second)
        let stored = try #require(
            try await harness.test.backend.database.query(
                "SELECT size, content_type FROM storage_objects WHERE bucket = \("avatars") AND name = \(path)"
            ).first)
        #expect(try stored.int("size") == second.count && stored.string("content_type") == "image/png")

        let url = try await alice.downloadURL("avatars", path)
        #expect(url.absoluteString.removingPercentEncoding?.contains("avatars/\(path)") == true)
        if let server = harness.server {
            // Over HTTP the link is real: anyone fetches the bytes with it.
            #expect(url.absoluteString.hasPrefix(server.baseURL.absoluteString))
            let (fetched, _) = try await URLSession.shared.data(from: url)
            #expect(fetched == second)
        }

        try await alice.delete("avatars", path)
        #expect(await ErrorCodes.of { _ = try await alice.download("avatars", path) } == "not_found")
        #expect(await ErrorCodes.of { try await alice.delete("avatars", path) } == "not_found")
        #expect(await ErrorCodes.of { _ = try await alice.downloadURL("avatars", path) } == "not_found")
        #expect(try await harness.test.count("storage_objects") == 0)
    }

    @Test("another person's folder, non-images and oversized files are refused", arguments: AdapterBackend.withFirebase)
    func refusals(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients.files
        let bob = harness.bobClients.files
        let path = "\(harness.aliceID.uuidString.lowercased())/avatar"
        _ = try await alice.upload("avatars", path, Self.png, "image/png")
        #expect(await ErrorCodes.of { _ = try await bob.upload("avatars", path, Self.png, "image/png") } == "forbidden")
        #expect(await ErrorCodes.of { try await bob.delete("avatars", path) } == "forbidden")
        #expect(try await bob.download("avatars", path) == Self.png)

        let own = "\(harness.aliceID.uuidString.lowercased())/notes.txt"
        #expect(await ErrorCodes.of { _ = try await alice.upload("avatars", own, Data("hi".utf8), "text/plain") } == "invalid_argument")
        let huge = Data(count: 5 * 1024 * 1024 + 1)
        #expect(await ErrorCodes.of { _ = try await alice.upload("avatars", own, huge, "image/png") } == "invalid_argument")
        // Markup sent as a picture, and a picture sent as another type, are refused from their bytes.
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#.utf8)
        #expect(await ErrorCodes.of { _ = try await alice.upload("avatars", own, svg, "image/png") } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await alice.upload("avatars", own, TestImages.jpeg, "image/png") } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await alice.download("avatars", own) } == "not_found")
        #expect(try await harness.test.count("storage_objects") == 1)
    }
}
