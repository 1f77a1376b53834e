import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The original app's documents through `DocumentsClient` on every adapter: `users/{uid}`,
/// `users/{uid}/contacts`, `qr_lookup` read as the backend projects them, and writes to
/// them held to the same rules (Firestore's REST wire on Firebase).
@Suite("DocumentsClient contract: the original app's documents", .serialized)
struct DocumentsProjectionContractTests {
    /// Alice is Bob's dependent (so Bob is her responder), both named, Alice checked in.
    static func linked(_ harness: DocumentHarness) async throws -> (alice: Caller, bob: Caller) {
        let backend = harness.test.backend
        let alice = Caller.user(try #require(UserID(string: harness.aliceID)))
        let bob = Caller.user(try #require(UserID(string: harness.bobID)))
        _ = try await backend.profiles.update(caller: alice, ProfileUpdate(firstName: "Alice", lastName: "Adams", emergencyNote: "Asthma"))
        _ = try await backend.profiles.update(caller: bob, ProfileUpdate(firstName: "Bob", lastName: "Brown"))
        // The code Alice's screen shows: the one in her profile links nobody unless it is shown.
        _ = try await backend.contacts.addContact(caller: bob, qrCodeID: try await backend.contacts.qrCode(caller: alice).id, roles: .dependent)
        _ = try await backend.checkIns.checkIn(caller: alice)
        return (alice, bob)
    }

    @Test("users/<uid>, its contacts and qr_lookup read the same on every backend", arguments: AdapterBackend.withFirebase)
    func reads(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let (alice, bob) = try await Self.linked(harness)
        let documents = harness.test.backend.documents
        let aliceUser = try DocumentPath("users/\(harness.aliceID)")

        let own = try await harness.alice.getDocument(aliceUser)
        #expect(own == (try await documents.get(caller: alice, path: aliceUser)))
        #expect(own.data["name"] == "Alice Adams" && own.data["lastCheckedIn"] != .null && own.data["qrCodeId"] != nil)
        // Bob, her responder, reads what his contact list shows of her, and not her code.
        let seen = try await harness.bob.getDocument(aliceUser)
        #expect(seen == (try await documents.get(caller: bob, path: aliceUser)))
        #expect(seen.data["qrCodeId"] == nil && seen.data["lastCheckedIn"] == own.data["lastCheckedIn"])

        let bobContacts = DocumentQuery(try CollectionPath("users/\(harness.bobID)/contacts"))
        let listed = try await harness.bob.queryDocuments(bobContacts)
        #expect(listed == (try await documents.query(caller: bob, bobContacts)))
        #expect(listed.map(\.id) == [harness.aliceID] && listed.first?.data["isDependent"] == true && listed.first?.data["name"] == "Alice Adams")
        #expect(try await harness.bob.queryDocuments(bobContacts.where("isResponder", .equal, true)).isEmpty)
        #expect(try await harness.bob.getDocument(try #require(listed.first).path) == listed.first)

        // A code links only while its owner shows it: the one just used finds nobody, the
        // next one shown finds her.
        let used = try #require(own.data["qrCodeId"])
        #expect(try await harness.bob.queryDocuments(DocumentQuery(try CollectionPath("qr_lookup")).where("qrCodeId", .equal, used).limit(1)).isEmpty)
        let code = DocumentValue.string(try await harness.test.backend.contacts.qrCode(caller: alice).id.uuidString.lowercased())
        let lookup = DocumentQuery(try CollectionPath("qr_lookup")).where("qrCodeId", .equal, code).limit(1)
        let found = try await harness.bob.queryDocuments(lookup)
        #expect(found == (try await documents.query(caller: bob, lookup)))
        #expect(found.map(\.id) == [harness.aliceID] && found.first?.data["name"] == "Alice Adams")
    }

    @Test("writes: an owner's whitelisted fields through the profile's rules; the rest refused, nothing changed", arguments: AdapterBackend.withFirebase)
    func writes(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let (alice, _) = try await Self.linked(harness)
        let profiles = harness.test.backend.profiles
        let aliceUser = try DocumentPath("users/\(harness.aliceID)")

        try await harness.alice.updateDocument(aliceUser, ["firstName": "Alicia", "notify2HoursBefore": true, "checkInInterval": 43_200])
        try await harness.alice.setDocument(aliceUser, ["note": "Asthma, inhaler in bag"], true)
        let changed = try await profiles.profile(caller: alice)
        #expect(changed.firstName == "Alicia" && changed.reminderLead == .twoHours && changed.checkInIntervalSeconds == 43_200)
        #expect(changed.emergencyNote == "Asthma, inhaler in bag")
        #expect(try await harness.alice.getDocument(aliceUser).data["note"] == "Asthma, inhaler in bag")

        let aliceContact = try DocumentPath("users/\(harness.bobID)/contacts/\(harness.aliceID)")
        let bobsOwn = try DocumentPath("users/\(harness.bobID)/contacts/someone")
        let refusals: [(String, @Sendable () async throws -> Void)] = [
            ("replace", { try await harness.alice.setDocument(aliceUser, ["firstName": "Zed"], false) }),
            ("delete", { try await harness.alice.deleteDocument(aliceUser) }),
            ("kept field", { try await harness.alice.updateDocument(aliceUser, ["qrCodeId": "x", "firstName": "Zed"]) }),
            ("someone else's", { try await harness.bob.updateDocument(aliceUser, ["firstName": "Zed"]) }),
            ("contact update", { try await harness.bob.updateDocument(aliceContact, ["isResponder": true]) }),
            ("contact create", { try await harness.bob.setDocument(bobsOwn, ["name": "Zed"], false) }),
            ("contact delete", { try await harness.bob.deleteDocument(aliceContact) }),
            ("qr listing", { _ = try await harness.bob.queryDocuments(DocumentQuery(try CollectionPath("qr_lookup"))) }),
            ("qr write", { try await harness.alice.setDocument(try DocumentPath("qr_lookup/\(harness.aliceID)"), ["qrCodeId": "x"], false) }),
        ]
        for (what, refusal) in refusals {
            #expect(await storageError(refusal) == .permissionDenied, "\(what)")
        }
        #expect(await storageError { try await harness.alice.updateDocument(aliceUser, ["firstName": "Z"]) } == .invalidData)
        #expect(await storageError { try await harness.alice.updateDocument(aliceUser, ["checkInInterval": 60]) } == .invalidData)
        #expect(try await profiles.profile(caller: alice) == changed)
        #expect(
            try await harness.test.backend.contacts.contacts(caller: .user(try #require(UserID(string: harness.bobID)))).contacts.map(\.roles) == [.dependent])
        #expect(try await harness.storedCount() == 0)
    }

    @Test("listeners on users/<me> and on my contacts hear changes made through the functions", arguments: AdapterBackend.withFirebase)
    func listening(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let (alice, _) = try await Self.linked(harness)
        let profile = try await harness.alice.listenDocument(try DocumentPath("users/\(harness.aliceID)"))
        let contacts = try await harness.bob.listenQuery(DocumentQuery(try CollectionPath("users/\(harness.bobID)/contacts")))

        harness.test.clock.advance(by: 600)
        let checkIn = try await harness.test.backend.checkIns.checkIn(caller: alice)
        let when = DocumentValue.timestamp(DocumentTimestamp.truncated(checkIn.checkedInAt))
        let mine = try await firstElement(of: profile) { $0.data["lastCheckedIn"] == when }
        #expect(mine != nil, "the check-in did not reach the listener on users/<me>")
        let theirs = try await firstElement(of: contacts) { $0.first?.data["lastCheckedIn"] == when }
        #expect(theirs != nil, "the check-in did not reach the responder's listener on their contacts")
    }
}
