import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

/// The values of ``DocumentsClient``.
@Suite("Storage client values")
struct DocumentsClientValuesTests {
    static let me = "00000000-0000-4000-8000-00000000c001"

    @Test("the test value fails any call a test did not override")
    func testValueIsUnimplemented() async throws {
        let path = try DocumentPath("users/\(Self.me)")
        await withKnownIssue { _ = try await DocumentsClient.testValue.getDocument(path) }
        await withKnownIssue { try await DocumentsClient.testValue.setDocument(path, [:], false) }
        await withKnownIssue { _ = try await DocumentsClient.testValue.queryDocuments(DocumentQuery(path.parent)) }
    }

    @Test("the preview holds my profile and contacts, follows the rules, and tells listeners")
    func preview() async throws {
        let client = DocumentsClient.previewValue
        let profile = try await client.getDocument(try DocumentPath("users/\(Self.me)"))
        #expect(profile.exists && profile.data["firstName"] == "Ann")
        let contacts = try CollectionPath("users/\(Self.me)/contacts")
        #expect(try await client.queryDocuments(DocumentQuery(contacts).order(by: "name")).map(\.id) == ["bob", "cat"])
        #expect(try await client.queryDocuments(DocumentQuery(contacts).where("roles", .arrayContains, "dependent")).map(\.id) == ["cat"])

        let path = try contacts.document("dan")
        let stream = try await client.listenDocument(path)
        var updates = stream.makeAsyncIterator()
        #expect(try await updates.next()?.exists == false)
        try await client.setDocument(path, ["name": "Dan"], false)
        #expect(try await updates.next()?.data == ["name": "Dan"])
        try await client.updateDocument(path, ["address.city": "Leeds"])
        #expect(try await updates.next()?.data == ["name": "Dan", "address": ["city": "Leeds"]])
        try await client.deleteDocument(path)
        #expect(try await updates.next()?.exists == false)

        let query = DocumentQuery(contacts).order(by: "name")
        var results = try await client.listenQuery(query).makeAsyncIterator()
        #expect(try await results.next()?.map(\.id) == ["bob", "cat"])
        try await client.setDocument(try contacts.document("abe"), ["name": "Abe"], false)
        #expect(try await results.next()?.map(\.id) == ["abe", "bob", "cat"])
        try await client.deleteDocument(try contacts.document("bob"))
        #expect(try await results.next()?.map(\.id) == ["abe", "cat"])

        await #expect(throws: DomainError.notFound("Document \(path)")) { try await client.updateDocument(path, ["name": "X"]) }
        await #expect(throws: DomainError.self) { _ = try await client.getDocument(try DocumentPath("users/someone-else")) }
        await #expect(throws: DomainError.self) { try await client.setDocument(path, ["grid": [[1]]], false) }
    }
}
