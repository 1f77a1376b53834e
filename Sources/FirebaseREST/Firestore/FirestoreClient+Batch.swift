import Foundation

extension FirestoreClient {
    /// Runs a structured query (`POST …/documents:runQuery`, or `…/documents/{parent}:runQuery`
    /// for a subcollection) and returns the matching documents in order.
    ///
    /// The server streams a JSON array; elements holding only `readTime` (the whole answer when
    /// nothing matches) or `skippedResults` carry no document and are dropped.
    public func runQuery(_ query: FirestoreQuery, parent: String? = nil) async throws -> [FirestoreDocument] {
        struct Element: Decodable {
            var document: FirestoreDocument?
            var readTime: String?
            var skippedResults: Int?
        }
        if let parent, (try segments(parent)).count % 2 != 0 {
            throw FirestoreError(status: .invalidArgument, message: "Query parent '\(parent)' is not a document", httpStatus: 0)
        }
        let url = try documentURL(parent, suffix: ":runQuery")
        return try await send(.post, url, body: query.body).decode([Element].self).compactMap(\.document)
    }

    /// Decodes every document a query returns.
    public func runQuery<T: Decodable>(_ query: FirestoreQuery, parent: String? = nil, as type: T.Type) async throws -> [T] {
        try await runQuery(query, parent: parent).map { try $0.decode(type) }
    }

    /// Applies `writes` atomically (`POST …/documents:commit`).
    @discardableResult
    public func commit(_ writes: [FirestoreWrite]) async throws -> FirestoreCommitResponse {
        let body = FirestoreWireJSON.object(["writes": .array(try writes.map { try $0.wire(resolve: resourceName) })])
        return try await send(.post, try documentURL(nil, suffix: ":commit"), body: body)
            .decode(FirestoreCommitResponse.self)
    }

    /// Reads several documents in one request (`POST …/documents:batchGet`). Missing documents
    /// are reported, not thrown; results come in the server's order.
    public func batchGet(_ paths: [String]) async throws -> [FirestoreBatchGetResult] {
        struct Element: Decodable {
            var found: FirestoreDocument?
            var missing: String?
        }
        let names = try paths.map { path -> FirestoreWireJSON in
            guard (try segments(path)).count % 2 == 0 else {
                throw FirestoreError(status: .invalidArgument, message: "'\(path)' is not a document path", httpStatus: 0)
            }
            return .string(try resourceName(path))
        }
        let url = try documentURL(nil, suffix: ":batchGet")
        return try await send(.post, url, body: .object(["documents": .array(names)])).decode([Element].self).compactMap {
            if let found = $0.found { return .found(found) }
            return $0.missing.map { .missing($0) }
        }
    }
}
