import FirebaseREST
import Foundation
import LifeSignalAdapters
import LifeSignalClients
import LifeSignalDomain
import Testing

/// Firestore's own error answers reach features as the seed's `StorageError` table says
/// (`NOT_FOUND` → documentNotFound, `PERMISSION_DENIED` → permissionDenied, `UNAVAILABLE` →
/// networkError, `INVALID_ARGUMENT` → invalidData, anything else → unknown), and the request
/// the Firebase adapter sends for an update is Firestore's `updateData`.
@Suite("Firestore error mapping and wire requests")
struct FirestoreErrorMappingTests {
    static let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-0000000000a1") ?? UUID())

    /// Firebase adapters signed in (with a token nobody checks) over a canned transport.
    static func adapters(_ respond: @escaping @Sendable (FirebaseHTTPRequest) async throws -> FirebaseHTTPResponse) async throws -> FirebaseAdapters {
        let adapters = AdapterHarness.firebaseAdapters(transport: FirebaseErrorMappingTests.CannedTransport(respond: respond), timeout: .seconds(5))
        await adapters.adopt(
            AuthSession(
                userID: me, phone: try PhoneNumber("+15550009999"), accessToken: "token", refreshToken: "refresh",
                expiresAt: Date().addingTimeInterval(3600), isNewUser: false))
        return adapters
    }

    static func error(_ status: Int, _ name: String) -> FirebaseHTTPResponse {
        FirebaseHTTPResponse(
            status: status, headers: ["Content-Type": "application/json"],
            body: Data(#"{"error":{"code":\#(status),"message":"Firestore says \#(name)","status":"\#(name)"}}"#.utf8))
    }

    @Test(
        "each Firestore status is the seed's StorageError",
        arguments: [
            (404, "NOT_FOUND", DocumentStorageError.documentNotFound), (403, "PERMISSION_DENIED", .permissionDenied),
            (503, "UNAVAILABLE", .networkError), (400, "INVALID_ARGUMENT", .invalidData), (504, "DEADLINE_EXCEEDED", .networkError),
            (409, "ABORTED", .unknown("Internal error: Firestore says ABORTED")),
        ])
    func statuses(status: Int, name: String, expected: DocumentStorageError) async throws {
        let storage = try await Self.adapters { _ in Self.error(status, name) }.documentsClient
        let path = try DocumentPath("users/\(Self.me)/notes/n")
        #expect(await storageError { try await storage.updateDocument(path, ["n": 1]) } == expected)
        #expect(await storageError { _ = try await storage.queryDocuments(DocumentQuery(path.parent)) } == expected)
    }

    @Test("an update is a PATCH masked to the dotted paths, on an existing document, with typed values")
    func updateRequest() async throws {
        let seen = LockedRequests()
        let storage = try await Self.adapters { request in
            await seen.append(request)
            return FirebaseHTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"name":"projects/p/databases/(default)/documents/users/x/notes/n","fields":{}}"#.utf8))
        }.documentsClient
        let path = try DocumentPath("users/\(Self.me)/notes/n")
        try await storage.updateDocument(path, ["address.city": "Leeds", "count": 2, "first name": "Ann"])
        let request = try #require(await seen.all.first)
        #expect(request.method == .patch && request.header("Authorization") == "Bearer token")
        let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(items.filter { $0.name == "updateMask.fieldPaths" }.compactMap(\.value) == ["address.city", "count", "`first name`"])
        #expect(items.contains { $0.name == "currentDocument.exists" && $0.value == "true" })
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        #expect(body.contains(#""count":{"integerValue":"2"}"#) && body.contains(#""address":{"mapValue":{"fields":{"city":{"stringValue":"Leeds"}}}}"#))
    }

    actor LockedRequests {
        private(set) var all: [FirebaseHTTPRequest] = []
        func append(_ request: FirebaseHTTPRequest) { all.append(request) }
    }
}
