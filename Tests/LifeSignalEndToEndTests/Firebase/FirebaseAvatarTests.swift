import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `UserClient`'s avatar promises on Firebase (the contract suite's avatar test checks the
/// Supabase-shaped public URL, so Firebase's token URL is checked here instead).
@Suite("Firebase avatars", .serialized)
struct FirebaseAvatarTests {
    @Test("an avatar goes to Storage with a token URL that downloads it, is replaced and removed; a non-image is refused")
    func avatar() async throws {
        let harness = try await AdapterHarness.start(.firebase)
        defer { Task { await harness.stop() } }
        let alice = harness.aliceClients.user
        let path = UserClient.avatarPath(for: UserID(harness.aliceID))
        let png = UserContractTests.png

        let withAvatar = try await alice.uploadAvatar(png, "image/png")
        let url = try #require(withAvatar.avatarURL.flatMap(URL.init(string:)))
        #expect(url.host == "firebasestorage.googleapis.com")
        #expect(url.absoluteString.contains("/v0/b/\(FirebaseReplayTransport.bucket)/o/avatars%2F\(UserID(harness.aliceID))%2Favatar?alt=media&token="))
        let stored = try await harness.test.backend.files.download(caller: .anonymous, bucket: "avatars", path: path)
        #expect(stored.data == png && stored.object.contentType == "image/png")
        // The URL works with no Authorization, as a Firebase download URL does.
        let transport = FirebaseReplayTransport(backend: harness.test.backend)
        let downloaded = try await transport.send(FirebaseHTTPRequest(method: .get, url: url))
        #expect(downloaded.status == 200 && downloaded.body == png)

        await #expect(throws: DomainError.self) { _ = try await alice.uploadAvatar(Data("hello".utf8), "text/plain") }
        // Firebase's rules cannot read bytes: the adapter refuses markup before sending it.
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#.utf8)
        await #expect { _ = try await alice.uploadAvatar(svg, "image/png") } throws: { error in
            guard case .invalidArgument = error as? DomainError else { return false }
            return true
        }
        await #expect(throws: DomainError.self) {
            _ = try await alice.uploadAvatar(Data(count: UserClient.maximumAvatarBytes + 1), "image/png")
        }
        #expect(try await alice.profile().avatarURL == withAvatar.avatarURL)

        let second = TestImages.png(width: 8, height: 8, shade: 3)
        let replaced = try await alice.uploadAvatar(second, "image/png")
        #expect(replaced.avatarURL != withAvatar.avatarURL, "a new version must not be hidden by a cached old one")
        #expect(try await harness.test.backend.files.download(caller: .anonymous, bucket: "avatars", path: path).data == second)

        let removed = try await alice.removeAvatar()
        #expect(removed.avatarURL == nil)
        await #expect(throws: StorageFailure.objectNotFound(path)) {
            _ = try await harness.test.backend.files.download(caller: .anonymous, bucket: "avatars", path: path)
        }
        // Removing again only clears the profile; nobody else's folder is writable.
        #expect(try await alice.removeAvatar().avatarURL == nil)
    }

    @Test("without a bucket configured avatars are refused, not lost")
    func noBucket() async throws {
        let adapters = AdapterHarness.firebaseAdapters(
            transport: FirebaseErrorMappingTests.CannedTransport { _ in
                FirebaseHTTPResponse(status: 500)
            })
        let bare = FirebaseAdapters(identityToolkit: adapters.identityToolkit, functionsURL: AdapterHarness.firebaseFunctionsURL)
        await #expect { _ = try await bare.userClient.uploadAvatar(UserContractTests.png, "image/png") } throws: { error in
            (error as? DomainError)?.code == "failed_precondition"
        }
    }
}
