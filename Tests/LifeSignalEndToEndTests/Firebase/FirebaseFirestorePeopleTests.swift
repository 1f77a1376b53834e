import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The Firebase adapters read people as the original app did — Firestore documents — and
/// change them through the callables: checked on the wire, request by request.
@Suite("Firebase people through Firestore")
struct FirebaseFirestorePeopleTests {
    /// The replay, remembering each request as "VERB host/path?query".
    final class Recording: FirebaseHTTPTransport, @unchecked Sendable {
        let replay: FirebaseReplayTransport
        private let lock = NSLock()
        private var seen: [String] = []
        init(_ backend: LifeSignalBackend) { replay = FirebaseReplayTransport(backend: backend) }

        func send(_ request: FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse {
            let line =
                "\(request.method.rawValue) \(request.url.host ?? "")\(request.url.path)"
                + (request.url.query.map { "?" + ($0.removingPercentEncoding ?? $0) } ?? "")
            lock.withLock { seen.append(line) }
            return try await replay.send(request)
        }

        /// The requests since the last call.
        func take() -> [String] {
            lock.withLock {
                defer { seen = [] }
                return seen
            }
        }
    }

    @Test("profile: GET users/<uid>, an update is a masked PATCH; contacts and QR lookups are :runQuery; changes stay callables")
    func wire() async throws {
        let phones = ("+15550007001", "+15550007002")
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phones.0)=111111,\(phones.1)=222222"))
        defer { Task { try? await test.backend.close() } }
        func signIn(_ phone: String, _ code: String) async throws -> (FirebaseAdapters, Recording, UserID) {
            let recording = Recording(test.backend)
            let adapters = AdapterHarness.firebaseAdapters(transport: recording)
            try await adapters.authClient.sendCode(try PhoneNumber(phone))
            let session = try await adapters.authClient.verifyCode(try PhoneNumber(phone), try OneTimeCode(code))
            _ = recording.take()
            return (adapters, recording, session.userID)
        }
        let (ann, annWire, annID) = try await signIn(phones.0, "111111")
        let (bob, bobWire, bobID) = try await signIn(phones.1, "222222")
        let documents = "firestore.googleapis.com/v1/projects/lifesignal-replay/databases/(default)/documents"

        let profile = try await ann.userClient.update(ProfileUpdate(firstName: "Ann", lastName: "Lee", avatarURL: ""))
        #expect(profile.firstName == "Ann" && profile.avatarURL == nil)
        #expect(try await ann.userClient.profile() == profile)
        #expect(
            annWire.take() == [
                "PATCH \(documents)/users/\(annID)?updateMask.fieldPaths=firstName&updateMask.fieldPaths=lastName"
                    + "&updateMask.fieldPaths=profileImageURL&currentDocument.exists=true",
                "GET \(documents)/users/\(annID)",
            ])

        let code = try await ann.contactsClient.qrCode().id
        #expect(try await bob.contactsClient.lookUpQRCode(code) == QRCodeOwner(userID: annID, name: "Ann Lee"))
        let added = try await bob.contactsClient.addByQRCode(code, .dependent)
        #expect(try await bob.contactsClient.contacts().contacts == [added])
        // Read from Firestore, changed through the callable; only the role requests, which
        // the original app's documents have no place for, are read through a function.
        #expect(
            bobWire.take() == [
                "POST \(documents):runQuery",
                "POST us-central1-lifesignal-replay.cloudfunctions.net/add-contact-by-qr",
                "POST \(documents)/users/\(bobID):runQuery",
                "POST \(documents)/users/\(bobID):runQuery",
                "POST us-central1-lifesignal-replay.cloudfunctions.net/get-contacts",
            ])
        // The code shown is the owner's own, from the callable (never from a document).
        #expect(annWire.take().last?.hasSuffix("/get-qr-code") == true)
    }
}
