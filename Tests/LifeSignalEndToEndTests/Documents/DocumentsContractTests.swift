import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `DocumentsClient`'s promises (seed `002_…`) on every adapter: in-process on SQLite, over
/// HTTP to `lifesignal serve` on SQLite and PostgreSQL, and over Firestore's REST wire format
/// replayed by the same backend.
@Suite("DocumentsClient contract", .serialized)
struct DocumentsContractTests {
    static let when = Date(timeIntervalSince1970: 1_767_225_600.123456)
    static let everyType: [String: DocumentValue] = [
        "null": .null, "yes": true, "no": false, "zero": 0, "big": .integer(.max), "small": .integer(.min), "negative": -42,
        "ratio": 0.25, "wholeDouble": 1.0, "huge": .double(1e300), "infinite": .double(-.infinity),
        "text": "Grüße, 👋 \"quoted\"", "empty": "", "when": .timestamp(when), "epoch": .timestamp(Date(timeIntervalSince1970: 0)),
        "blob": .bytes(Data([0, 1, 2, 254, 255])), "list": [1, "two", 3.5, nil, ["k": "v"]], "none": [],
        "nested": ["level": ["deeper": ["deepest": .timestamp(when)]], "tags": ["a", "b"]], "emptyMap": [:],
    ]

    @Test("every value type comes back exactly as written", arguments: AdapterBackend.withFirebase)
    func roundTrip(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("notes/all-types")
        try await harness.alice.setDocument(path, Self.everyType, false)
        let read = try await harness.alice.getDocument(path)
        #expect(read.exists && read.id == "all-types" && read.path == path)
        #expect(read.data == Self.everyType)
        #expect(read.updateTime != nil && read.createTime != nil)
        // Integers stay integers and doubles doubles, in storage too.
        let stored = try #require(try await harness.storedJSON(path))
        let decoded = try DocumentJSON.decode(stored)
        #expect(decoded["wholeDouble"] == .double(1) && decoded["zero"] == .integer(0))
        // The profile document itself, `users/<me>`, is mine too: projected from the profile
        // (`StorageProjectionContractTests`), never stored.
        let profile = try DocumentPath("users/\(harness.aliceID)")
        #expect(try await harness.alice.getDocument(profile).data["uid"] == .string(harness.aliceID))
    }

    @Test("set replaces the document; set with merge merges maps and keeps other fields", arguments: AdapterBackend.withFirebase)
    func setReplacesOrMerges(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("friends/bob")
        try await harness.alice.setDocument(path, ["name": "Bob", "address": ["city": "Leeds", "zip": "LS1"], "age": 40], false)
        try await harness.alice.setDocument(path, ["name": "Robert"], false)
        #expect(try await harness.alice.getDocument(path).data == ["name": "Robert"])
        try await harness.alice.setDocument(path, ["address": ["city": "York"], "age": 41], true)
        try await harness.alice.setDocument(path, ["address": ["zip": "YO1"]], true)
        #expect(try await harness.alice.getDocument(path).data == ["name": "Robert", "address": ["city": "York", "zip": "YO1"], "age": 41])
        #expect(try await harness.storedCount() == 1)
    }

    @Test(
        "update merges dotted field paths into an existing document; a missing one is documentNotFound and stays missing",
        arguments: AdapterBackend.withFirebase)
    func update(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("friends/cat")
        try await harness.alice.setDocument(path, ["name": "Cat", "address": ["city": "Leeds", "zip": "LS1"], "tags": ["a"]], false)
        try await harness.alice.updateDocument(path, ["address.city": "Hull", "age": 33, "prefs.sms": true, "tags": ["a", "b"]])
        let expected: [String: DocumentValue] = [
            "name": "Cat", "address": ["city": "Hull", "zip": "LS1"], "age": 33, "prefs": ["sms": true], "tags": ["a", "b"],
        ]
        #expect(try await harness.alice.getDocument(path).data == expected)

        let missing = try harness.alicePath("friends/nobody")
        #expect(await storageError { try await harness.alice.updateDocument(missing, ["name": "Nobody"]) } == .documentNotFound)
        #expect(try await harness.alice.getDocument(missing).exists == false)
        #expect(await storageError { try await harness.alice.updateDocument(path, ["address": "x", "address.city": "y"]) } == .invalidData)
        #expect(try await harness.alice.getDocument(path).data == expected)
        #expect(try await harness.storedCount() == 1)
    }

    @Test("delete removes the document; reading it then says it does not exist; deleting again succeeds", arguments: AdapterBackend.withFirebase)
    func delete(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("notes/temp")
        try await harness.alice.setDocument(path, ["body": "soon gone"], false)
        try await harness.alice.deleteDocument(path)
        let read = try await harness.alice.getDocument(path)
        #expect(!read.exists && read.data.isEmpty && read.id == "temp")
        try await harness.alice.deleteDocument(path)
        #expect(try await harness.storedCount() == 0)
    }

    @Test("another person's documents, and anything outside users/<me>, are refused and left unchanged", arguments: AdapterBackend.withFirebase)
    func ownerOnly(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("friends/private")
        try await harness.alice.setDocument(path, ["secret": "mine"], false)
        let bob = harness.bob
        #expect(await storageError { _ = try await bob.getDocument(path) } == .permissionDenied)
        #expect(await storageError { try await bob.setDocument(path, ["secret": "his"], false) } == .permissionDenied)
        #expect(await storageError { try await bob.updateDocument(path, ["secret": "his"]) } == .permissionDenied)
        #expect(await storageError { try await bob.deleteDocument(path) } == .permissionDenied)
        #expect(await storageError { _ = try await bob.queryDocuments(DocumentQuery(path.parent)) } == .permissionDenied)
        #expect(await storageError { _ = try await bob.listenDocument(path) } == .permissionDenied)
        let outside = try DocumentPath("public/notice")
        #expect(await storageError { try await harness.alice.setDocument(outside, ["text": "hi"], false) } == .permissionDenied)
        #expect(await storageError { _ = try await harness.alice.queryDocuments(DocumentQuery(try CollectionPath("users"))) } == .permissionDenied)
        #expect(try await harness.alice.getDocument(path).data == ["secret": "mine"])
        #expect(try await harness.storedCount() == 1)
    }

    @Test("signed out, nothing is read or written", arguments: AdapterBackend.withFirebase)
    func signedOut(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("notes/n")
        try await harness.alice.setDocument(path, ["n": 1], false)
        let visitor = harness.visitor
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.getDocument(path) }
        await #expect(throws: DomainError.unauthenticated) { try await visitor.setDocument(path, ["n": 2], false) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await visitor.queryDocuments(DocumentQuery(path.parent)) }
        #expect(await storageError { try await visitor.deleteDocument(path) } == .permissionDenied)
        try await harness.aliceAuth.signOut()
        await #expect(throws: DomainError.unauthenticated) { _ = try await harness.alice.getDocument(path) }
        #expect(try await harness.storedCount() == 1)
    }

    @Test("bad paths, oversized documents and broken field rules are invalidData; nothing is stored", arguments: AdapterBackend.withFirebase)
    func invalidData(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let me = harness.aliceID
        for bad in ["", "users/\(me)/notes", "users/\(me)//x", "users/\(me)/notes/..", "users/\(me)/__x__/y", "/users/\(me)/notes/a"] {
            #expect(await storageError { _ = try DocumentPath(bad) } == .invalidData, "\(bad)")
        }
        let path = try harness.alicePath("notes/big")
        let huge = String(repeating: "x", count: DocumentRules.maximumDocumentBytes)
        #expect(await storageError { try await harness.alice.setDocument(path, ["body": .string(huge)], false) } == .invalidData)
        #expect(await storageError { try await harness.alice.setDocument(path, ["__name__": 1], false) } == .invalidData)
        #expect(await storageError { try await harness.alice.setDocument(path, ["grid": [[1, 2], [3]]], false) } == .invalidData)
        #expect(await storageError { try await harness.alice.setDocument(path, ["": 1], false) } == .invalidData)
        #expect(await storageError { _ = try await harness.alice.queryDocuments(DocumentQuery(path.parent).limit(0)) } == .invalidData)
        #expect(try await harness.storedCount() == 0)
    }
}
