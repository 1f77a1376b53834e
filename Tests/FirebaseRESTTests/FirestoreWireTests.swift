import Foundation
import Testing

@testable import FirebaseREST

/// Golden wire tests for every Firestore call.
@Suite struct FirestoreWireTests {
    static let root = "https://firestore.googleapis.com/v1/projects/p/databases/(default)/documents"
    static let name = "projects/p/databases/(default)/documents"
    let doc =
        #"{"name":"projects/p/databases/(default)/documents/users/u1","fields":{"n":{"integerValue":"1"}},"createTime":"2024-01-01T00:00:00.123456789Z","updateTime":"2024-01-02T00:00:00.5Z"}"#

    func client(_ transport: RecordingTransport, token: String? = "ID") -> FirestoreClient {
        FirestoreClient(projectID: "p", tokenProvider: StaticIDTokenProvider(token), options: options(transport))
    }

    @Test func getDocument() async throws {
        let transport = RecordingTransport(body: doc)
        let document = try await client(transport).getDocument("users/u1")
        let request = try #require(transport.last)
        #expect(request.method == .get)
        #expect(request.rawURL == Self.root + "/users/u1")
        #expect(request.header("Authorization") == "Bearer ID")
        #expect(request.body == nil)
        #expect(document.id == "u1" && document.path == "users/u1" && document.fields == ["n": 1])
        #expect(document.updateTime == "2024-01-02T00:00:00.5Z")
        #expect(document.updateDate == Date(timeIntervalSince1970: 1_704_153_600.5))
    }

    @Test func pathSegmentsAreEncodedAndValidated() async throws {
        let transport = RecordingTransport(body: doc)
        _ = try await client(transport, token: nil).getDocument("users/a b+c?d")
        #expect(transport.last?.rawURL == Self.root + "/users/a%20b%2Bc%3Fd")
        #expect(transport.last?.header("Authorization") == nil)
        for bad in ["", "users", "users//u1", "a/b/c"] {
            await #expect(throws: FirestoreError.self) { _ = try await client(transport).getDocument(bad) }
        }
        #expect(transport.requests.count == 1)
    }

    @Test func createDocument() async throws {
        let transport = RecordingTransport(body: doc)
        _ = try await client(transport).createDocument(in: "users", id: "u1", fields: ["n": 1, "s": "x"])
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawURL == Self.root + "/users?documentId=u1")
        #expect(request.header("Content-Type") == "application/json")
        #expect(try jsonBody(request) == ["fields": ["n": ["integerValue": "1"], "s": ["stringValue": "x"]]])
        _ = try await client(transport).createDocument(in: "users/u1/checkins", fields: [:])
        #expect(transport.last?.rawURL == Self.root + "/users/u1/checkins")
        #expect(try jsonBody(transport.last) == ["fields": [:]])
    }

    @Test func patchWithMaskAndPreconditions() async throws {
        let transport = RecordingTransport(body: doc)
        let firestore = client(transport)
        _ = try await firestore.patchDocument(
            "users/u1", fields: ["a": 1], updateMask: ["a", "b.c"], precondition: .exists(true))
        #expect(transport.last?.method == .patch)
        #expect(
            transport.last?.rawURL
                == Self.root + "/users/u1?updateMask.fieldPaths=a&updateMask.fieldPaths=b.c&currentDocument.exists=true")
        #expect(try jsonBody(transport.last) == ["fields": ["a": ["integerValue": "1"]]])

        _ = try await firestore.patchDocument("users/u1", fields: [:], precondition: .updateTime("2024-01-02T00:00:00.5Z"))
        #expect(transport.last?.rawURL == Self.root + "/users/u1?currentDocument.updateTime=2024-01-02T00%3A00%3A00.5Z")

        _ = try await firestore.updateDocument("users/u1", fields: ["z": true, "y": nil])
        #expect(
            transport.last?.rawURL
                == Self.root + "/users/u1?updateMask.fieldPaths=y&updateMask.fieldPaths=z&currentDocument.exists=true")

        struct Body: Codable {
            var name: String
            var nick: String?
        }
        _ = try await firestore.setDocument("users/u1", Body(name: "Ann", nick: nil))
        #expect(transport.last?.rawURL == Self.root + "/users/u1")
        #expect(try jsonBody(transport.last) == ["fields": ["name": ["stringValue": "Ann"], "nick": ["nullValue": nil]]])
    }

    @Test func deleteDocument() async throws {
        let transport = RecordingTransport(body: "{}")
        try await client(transport).deleteDocument("users/u1", precondition: .exists(true))
        #expect(transport.last?.method == .delete)
        #expect(transport.last?.rawURL == Self.root + "/users/u1?currentDocument.exists=true")
        #expect(transport.last?.body == nil)
    }

    @Test func listDocuments() async throws {
        let transport = RecordingTransport(body: #"{"documents":[\#(doc)],"nextPageToken":"NEXT"}"#)
        let page = try await client(transport).listDocuments("users", pageSize: 10, pageToken: "T", orderBy: "n desc")
        #expect(transport.last?.rawURL == Self.root + "/users?pageSize=10&pageToken=T&orderBy=n%20desc")
        #expect(page.documents.count == 1 && page.nextPageToken == "NEXT")
        let empty = try await client(RecordingTransport(body: "{}")).listDocuments("users")
        #expect(empty.documents.isEmpty && empty.nextPageToken == nil)
    }

    @Test func runQueryBody() async throws {
        let transport = RecordingTransport(body: #"[{"document":\#(doc),"readTime":"t"},{"readTime":"t","skippedResults":1}]"#)
        let query = FirestoreQuery(collection: "checkins")
            .where("userId", .equal, "u1")
            .where("deleted", .isNull)
            .filter(.or([.field("n", .greaterThanOrEqual, 2), .field("tags", .arrayContainsAny, ["a"])]))
            .order(by: "at", descending: true)
            .order(by: "n")
            .start(at: [5], before: true)
            .end(at: ["z"], before: false)
            .offset(3)
            .limit(20)
            .select(["n"])
        let documents = try await client(transport).runQuery(query)
        #expect(documents.map(\.id) == ["u1"])
        let request = try #require(transport.last)
        #expect(request.method == .post)
        #expect(request.rawURL == Self.root + ":runQuery")
        let expected = try json(
            #"""
            {"structuredQuery":{
              "from":[{"collectionId":"checkins"}],
              "select":{"fields":[{"fieldPath":"n"}]},
              "where":{"compositeFilter":{"op":"AND","filters":[
                {"fieldFilter":{"field":{"fieldPath":"userId"},"op":"EQUAL","value":{"stringValue":"u1"}}},
                {"unaryFilter":{"field":{"fieldPath":"deleted"},"op":"IS_NULL"}},
                {"compositeFilter":{"op":"OR","filters":[
                  {"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN_OR_EQUAL","value":{"integerValue":"2"}}},
                  {"fieldFilter":{"field":{"fieldPath":"tags"},"op":"ARRAY_CONTAINS_ANY","value":{"arrayValue":{"values":[{"stringValue":"a"}]}}}}
                ]}}
              ]}},
              "orderBy":[{"field":{"fieldPath":"at"},"direction":"DESCENDING"},{"field":{"fieldPath":"n"},"direction":"ASCENDING"}],
              "startAt":{"values":[{"integerValue":"5"}],"before":true},
              "endAt":{"values":[{"stringValue":"z"}],"before":false},
              "offset":3,"limit":20}}
            """#)
        #expect(try jsonBody(request) == expected)
    }

    @Test func runQueryUnderParentAndEmptyResult() async throws {
        let transport = RecordingTransport(body: #"[{"readTime":"2024-01-01T00:00:00Z"}]"#)
        let documents = try await client(transport).runQuery(
            FirestoreQuery(collection: "checkins", allDescendants: true), parent: "users/u1")
        #expect(documents.isEmpty)
        #expect(transport.last?.rawURL == Self.root + "/users/u1:runQuery")
        #expect(try jsonBody(transport.last) == ["structuredQuery": ["from": [["collectionId": "checkins", "allDescendants": true]]]])
    }

    @Test func commitWithTransforms() async throws {
        let transport = RecordingTransport(
            body:
                #"{"writeResults":[{"updateTime":"u","transformResults":[{"timestampValue":"2024-01-01T00:00:00Z"}]},{},{"updateTime":"u"}],"commitTime":"c"}"#)
        let reply = try await client(transport).commit([
            .update("users/u1", fields: ["n": 1], mask: ["n"], transforms: [.init("at", .serverTimestamp)], precondition: .exists(true)),
            .delete("users/u2"),
            .transform("stats/s", [.init("count", .increment(1)), .init("tags", .appendMissingElements(["a"]))]),
        ])
        #expect(transport.last?.rawURL == Self.root + ":commit")
        let expected = try json(
            #"""
            {"writes":[
              {"update":{"name":"\#(Self.name)/users/u1","fields":{"n":{"integerValue":"1"}}},
               "updateMask":{"fieldPaths":["n"]},
               "updateTransforms":[{"fieldPath":"at","setToServerValue":"REQUEST_TIME"}],
               "currentDocument":{"exists":true}},
              {"delete":"\#(Self.name)/users/u2"},
              {"transform":{"document":"\#(Self.name)/stats/s","fieldTransforms":[
                {"fieldPath":"count","increment":{"integerValue":"1"}},
                {"fieldPath":"tags","appendMissingElements":{"values":[{"stringValue":"a"}]}}]}}
            ]}
            """#)
        #expect(try jsonBody(transport.last) == expected)
        #expect(reply.commitTime == "c" && reply.writeResults?.count == 3)
    }

    @Test func batchGet() async throws {
        let transport = RecordingTransport(
            body: #"[{"found":\#(doc),"readTime":"t"},{"missing":"\#(Self.name)/users/u2","readTime":"t"}]"#)
        let results = try await client(transport).batchGet(["users/u1", "users/u2"])
        #expect(transport.last?.rawURL == Self.root + ":batchGet")
        #expect(try jsonBody(transport.last) == ["documents": [.string(Self.name + "/users/u1"), .string(Self.name + "/users/u2")]])
        #expect(results.count == 2)
        #expect(results[1] == .missing(Self.name + "/users/u2"))
    }

    @Test func emulatorAndNamedDatabase() async throws {
        let transport = RecordingTransport(body: doc)
        let firestore = FirestoreClient(
            projectID: "demo-p", databaseID: "other", baseURL: URL(string: "http://127.0.0.1:8080")!,
            tokenProvider: StaticIDTokenProvider("owner"), options: options(transport))
        _ = try await firestore.getDocument("users/u1")
        #expect(transport.last?.rawURL == "http://127.0.0.1:8080/v1/projects/demo-p/databases/other/documents/users/u1")
        #expect(transport.last?.header("authorization") == "Bearer owner")
    }
}
