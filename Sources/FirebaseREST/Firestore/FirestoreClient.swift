import Foundation

/// The Cloud Firestore REST API (v1), as a document store.
///
/// Every request carries `Authorization: Bearer <ID token>` from the ``IDTokenProvider`` so
/// security rules apply exactly as they do for the mobile SDKs. There is no offline cache and
/// no realtime channel over REST: ``listenDocument(_:interval:)`` and
/// ``listenQuery(_:parent:interval:)`` poll.
///
/// Paths are relative to the database's `documents`: `users/u1`, `users/u1/checkins/c9`.
public struct FirestoreClient: Sendable {
    public var projectID: String
    public var databaseID: String
    /// `https://firestore.googleapis.com`, or the emulator's `http://host:port`.
    public var baseURL: URL
    let tokenProvider: any IDTokenProvider
    let pipeline: HTTPPipeline

    /// The production endpoint.
    public static let productionURL = URL(string: "https://firestore.googleapis.com")!

    /// Creates a client for `projectID`'s database `databaseID`.
    public init(
        projectID: String,
        databaseID: String = "(default)",
        baseURL: URL = Self.productionURL,
        tokenProvider: any IDTokenProvider,
        options: FirebaseHTTPOptions = FirebaseHTTPOptions()
    ) {
        self.projectID = projectID
        self.databaseID = databaseID
        self.baseURL = baseURL
        self.tokenProvider = tokenProvider
        self.pipeline = options.pipeline
    }

    /// `projects/{p}/databases/{d}/documents`, the prefix of every resource name.
    public var documentsRoot: String { "projects/\(projectID)/databases/\(databaseID)/documents" }

    /// The full resource name of the document or collection at `path`.
    public func resourceName(_ path: String) throws -> String {
        documentsRoot + "/" + (try segments(path)).joined(separator: "/")
    }

    // MARK: Documents

    /// Reads a document; a missing one throws ``FirestoreError`` with status `notFound`.
    public func getDocument(_ path: String) async throws -> FirestoreDocument {
        try await send(.get, try documentURL(path, expectDocument: true)).decode(FirestoreDocument.self)
    }

    /// Reads a document, answering `nil` when it does not exist.
    public func documentIfExists(_ path: String) async throws -> FirestoreDocument? {
        do {
            return try await getDocument(path)
        } catch let error as FirestoreError where error.status == .notFound {
            return nil
        }
    }

    /// Reads and decodes a document.
    public func getDocument<T: Decodable>(_ path: String, as type: T.Type) async throws -> T {
        try await getDocument(path).decode(type)
    }

    /// Lists one page of a collection; pass the returned token back for the next page.
    public func listDocuments(
        _ collection: String, pageSize: Int? = nil, pageToken: String? = nil, orderBy: String? = nil
    ) async throws -> (documents: [FirestoreDocument], nextPageToken: String?) {
        struct Reply: Decodable {
            var documents: [FirestoreDocument]?
            var nextPageToken: String?
        }
        var query: [(String, String)] = []
        if let pageSize { query.append(("pageSize", String(pageSize))) }
        if let pageToken { query.append(("pageToken", pageToken)) }
        if let orderBy { query.append(("orderBy", orderBy)) }
        let reply = try await send(.get, try documentURL(collection, expectDocument: false, query: query)).decode(Reply.self)
        return (reply.documents ?? [], reply.nextPageToken)
    }

    /// Creates a document in `collection` (`POST /{collection}?documentId=`); `id == nil` lets
    /// the server choose one. An existing id fails with `alreadyExists`.
    @discardableResult
    public func createDocument(
        in collection: String, id: String? = nil, fields: [String: FirestoreValue]
    ) async throws -> FirestoreDocument {
        let query = id.map { [("documentId", $0)] } ?? []
        let url = try documentURL(collection, expectDocument: false, query: query)
        return try await send(.post, url, body: FirestoreWireJSON.object(["fields": .fields(fields)]))
            .decode(FirestoreDocument.self)
    }

    /// Writes a document (`PATCH`).
    ///
    /// - Parameters:
    ///   - updateMask: `nil` replaces the whole document (creating it if needed). With a mask,
    ///     only those field paths change, and a masked path absent from `fields` is deleted.
    ///   - precondition: `.exists(true)` makes it an update that fails on a missing document;
    ///     `.updateTime(t)` is optimistic locking.
    @discardableResult
    public func patchDocument(
        _ path: String, fields: [String: FirestoreValue], updateMask: [String]? = nil,
        precondition: FirestorePrecondition? = nil
    ) async throws -> FirestoreDocument {
        var query = (updateMask ?? []).map { ("updateMask.fieldPaths", $0) }
        if let precondition { query.append(precondition.queryItem) }
        let url = try documentURL(path, expectDocument: true, query: query)
        return try await send(.patch, url, body: FirestoreWireJSON.object(["fields": .fields(fields)]))
            .decode(FirestoreDocument.self)
    }

    /// Replaces (or creates) a document with an `Encodable` value — the SDK's `setData(from:)`.
    @discardableResult
    public func setDocument<T: Encodable>(
        _ path: String, _ value: T, encoder: FirestoreEncoder = FirestoreEncoder()
    ) async throws -> FirestoreDocument {
        try await patchDocument(path, fields: try encoder.encode(value))
    }

    /// Changes only the given fields of an existing document — the SDK's `updateData`. Fails
    /// with `notFound` when the document does not exist.
    @discardableResult
    public func updateDocument(_ path: String, fields: [String: FirestoreValue]) async throws -> FirestoreDocument {
        try await patchDocument(path, fields: fields, updateMask: fields.keys.sorted(), precondition: .exists(true))
    }

    /// Deletes a document. Deleting a missing document succeeds unless a precondition says
    /// otherwise.
    public func deleteDocument(_ path: String, precondition: FirestorePrecondition? = nil) async throws {
        let query = precondition.map { [$0.queryItem] } ?? []
        _ = try await send(.delete, try documentURL(path, expectDocument: true, query: query))
    }

    // MARK: Plumbing

    /// Splits and validates a relative path: no empty segments, nothing but the path.
    func segments(_ path: String) throws -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let trimmed = Array(parts.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed())
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isEmpty) else {
            throw FirestoreError(status: .invalidArgument, message: "Invalid Firestore path '\(path)'", httpStatus: 0)
        }
        return trimmed
    }

    /// `{base}/v1/{documentsRoot}/{path}[:suffix]?{query}`, each segment percent-encoded.
    func documentURL(
        _ path: String?, expectDocument: Bool? = nil, suffix: String = "", query: [(String, String)] = []
    ) throws -> URL {
        var string =
            baseURL.baseWithoutTrailingSlash + "/v1/projects/" + percentEncode(projectID) + "/databases/"
            + percentEncode(databaseID, keeping: "()") + "/documents"
        if let path {
            let parts = try segments(path)
            if let expectDocument, (parts.count % 2 == 0) != expectDocument {
                let kind = expectDocument ? "document" : "collection"
                throw FirestoreError(status: .invalidArgument, message: "'\(path)' is not a \(kind) path", httpStatus: 0)
            }
            string += "/" + parts.map { percentEncode($0) }.joined(separator: "/")
        }
        string += suffix
        if !query.isEmpty { string += "?" + percentEncodedQuery(query) }
        return try httpURL(string)
    }

    /// Sends with the bearer token; non-2xx becomes a ``FirestoreError``.
    func send(_ method: HTTPMethod, _ url: URL, body: FirestoreWireJSON? = nil) async throws
        -> HTTPResponse
    {
        var request = HTTPRequest(method: method, url: url)
        if let token = try await tokenProvider.idToken() { request.headers["Authorization"] = "Bearer " + token }
        if let body {
            request.headers["Content-Type"] = "application/json"
            request.body = try encodeJSONBody(body)
        }
        let response = try await pipeline.send(request)
        guard response.isSuccess else { throw FirestoreError(response: response) }
        return response
    }
}
