import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `DocumentsClient`'s queries and listeners on every adapter.
@Suite("DocumentsClient contract: queries and listeners", .serialized)
struct DocumentsQueryListenTests {
    @Test("queries filter, order and limit one collection of mine, Firestore's way", arguments: AdapterBackend.withFirebase)
    func query(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let contacts = try CollectionPath("users/\(harness.aliceID)/friends")
        let people: [(String, [String: DocumentValue])] = [
            ("ann", ["name": "Ann", "age": 30, "roles": ["responder"], "address": ["city": "Leeds"]]),
            ("bob", ["name": "Bob", "age": 30.0, "roles": ["dependent"], "address": ["city": "York"]]),
            ("cat", ["name": "Cat", "age": 41, "roles": ["responder", "dependent"]]),
            ("dan", ["name": "Dan", "roles": []]),
            ("eve", ["name": "Eve", "age": "unknown", "roles": ["responder"], "address": ["city": "Leeds"]]),
            ("fay", ["name": "Fay", "age": 25.5, "roles": ["dependent"]]),
        ]
        for (id, data) in people { try await harness.alice.setDocument(try contacts.document(id), data, false) }
        // Documents elsewhere must never appear: another collection of mine, and Bob's own contacts.
        try await harness.alice.setDocument(try harness.alicePath("notes/ann"), ["name": "Ann", "age": 30], false)
        try await harness.bob.setDocument(try DocumentPath("users/\(harness.bobID)/friends/ann"), ["name": "Ann", "age": 30], false)

        func ids(_ query: DocumentQuery) async throws -> [String] { try await harness.alice.queryDocuments(query).map(\.id) }
        let all = DocumentQuery(contacts)
        #expect(try await ids(all) == ["ann", "bob", "cat", "dan", "eve", "fay"])
        // 30 and 30.0 are equal; strings never satisfy a numeric range; missing fields never match.
        #expect(try await ids(all.where("age", .equal, 30)) == ["ann", "bob"])
        #expect(try await ids(all.where("age", .greaterThanOrEqual, 30).order(by: "age", descending: true)) == ["cat", "bob", "ann"])
        #expect(try await ids(all.where("age", .lessThan, 30)) == ["fay"])
        #expect(try await ids(all.where("age", .notEqual, 30)) == ["cat", "eve", "fay"])
        #expect(try await ids(all.where("roles", .arrayContains, "responder")) == ["ann", "cat", "eve"])
        #expect(try await ids(all.where("name", .in, ["Cat", "Fay", "Zed"])) == ["cat", "fay"])
        #expect(try await ids(all.where("address.city", .equal, "Leeds")) == ["ann", "eve"])
        #expect(try await ids(all.where("roles", .arrayContains, "responder").where("address.city", .equal, "Leeds")) == ["ann", "eve"])
        // Ordering leaves out documents without the field; numbers sort before strings.
        #expect(try await ids(all.order(by: "age")) == ["fay", "ann", "bob", "cat", "eve"])
        #expect(try await ids(all.order(by: "name", descending: true).limit(2)) == ["fay", "eve"])
        #expect(try await ids(all.where("age", .greaterThan, 100)) == [])
        let read = try #require(try await harness.alice.queryDocuments(all.where("name", .equal, "Cat")).first)
        let cat = try contacts.document("cat")
        #expect(read.data == people[2].1 && read.exists && read.path == cat)
    }

    @Test("a listener hears the document now, each change, and its deletion", arguments: AdapterBackend.withFirebase)
    func listen(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("friends/live")
        let stream = try await harness.alice.listenDocument(path)
        let first = try #require(try await firstElement(of: stream, within: 10), "no first snapshot")
        #expect(!first.exists && first.path == path)

        try await harness.alice.setDocument(path, ["name": "Live", "count": 1], false)
        let created = try #require(try await firstElement(of: stream, within: 10) { $0.exists }, "the creation was not heard")
        #expect(created.data == ["name": "Live", "count": 1])

        // Changes elsewhere, mine or Bob's, do not concern this listener.
        try await harness.alice.setDocument(try harness.alicePath("friends/other"), ["name": "Other"], false)
        try await harness.bob.setDocument(try DocumentPath("users/\(harness.bobID)/friends/live"), ["name": "Bob's"], false)
        try await harness.alice.updateDocument(path, ["count": 2])
        let updated = try #require(try await firstElement(of: stream, within: 10) { $0.data["count"] == 2 }, "the update was not heard")
        #expect(updated.data == ["name": "Live", "count": 2])

        try await harness.alice.deleteDocument(path)
        let deleted = try #require(try await firstElement(of: stream, within: 10) { !$0.exists }, "the deletion was not heard")
        #expect(deleted.data.isEmpty && deleted.path == path)
    }

    @Test(
        "a query listener hears the results now, then each addition, reordering, filtering out and removal",
        arguments: AdapterBackend.withFirebase)
    func listenQuery(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let contacts = try CollectionPath("users/\(harness.aliceID)/friends")
        try await harness.alice.setDocument(try contacts.document("ann"), ["age": 30], false)
        let stream = try await harness.alice.listenQuery(DocumentQuery(contacts).where("age", .greaterThan, 18).order(by: "age"))
        @Sendable func ids(_ results: [DocumentSnapshot]) -> [String] { results.map(\.id) }
        func next(_ expected: [String], _ what: Comment) async throws {
            let results = try await firstElement(of: stream, within: 10) { ids($0) == expected }
            #expect(results.map(ids) == expected, what)
        }
        try await next(["ann"], "no first results")
        try await harness.alice.setDocument(try contacts.document("bob"), ["age": 20], false)
        try await next(["bob", "ann"], "the addition was not heard")
        // Elsewhere: another collection of mine, Bob's own contacts.
        try await harness.alice.setDocument(try harness.alicePath("notes/cat"), ["age": 50], false)
        try await harness.bob.setDocument(try DocumentPath("users/\(harness.bobID)/friends/dan"), ["age": 60], false)
        try await harness.alice.updateDocument(try contacts.document("bob"), ["age": 40])
        try await next(["ann", "bob"], "the reordering was not heard")
        try await harness.alice.updateDocument(try contacts.document("ann"), ["age": 10])
        try await next(["bob"], "a document leaving the filter was not heard")
        try await harness.alice.deleteDocument(try contacts.document("bob"))
        try await next([], "the removal was not heard")
        #expect(await storageError { _ = try await harness.bob.listenQuery(DocumentQuery(contacts)) } == .permissionDenied)
    }

    @Test("a listener on a document that exists starts with it; Bob cannot listen to Alice's", arguments: AdapterBackend.withFirebase)
    func listenExisting(backend: AdapterBackend) async throws {
        let harness = try await DocumentHarness.start(backend)
        defer { Task { await harness.stop() } }
        let path = try harness.alicePath("friends/there")
        try await harness.alice.setDocument(path, ["name": "There"], false)
        let stream = try await harness.alice.listenDocument(path)
        let first = try #require(try await firstElement(of: stream, within: 10), "no first snapshot")
        #expect(first.exists && first.data == ["name": "There"])
        await #expect(throws: DomainError.self) { _ = try await harness.bob.listenDocument(path) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await harness.visitor.listenDocument(path) }
    }
}
