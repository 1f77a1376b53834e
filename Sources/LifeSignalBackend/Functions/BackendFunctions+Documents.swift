import Foundation
import LifeSignalDomain

extension BackendFunctions {
    /// The document functions (``DocumentService``): values travel as ``DocumentValue``'s
    /// typed JSON, documents as ``DocumentSnapshot``'s.
    static let documentFunctions: [String: Handler] = [
        "get-document": { backend, caller, body in
            let request = try decode(DocumentPathRequest.self, from: body)
            return try encode(try await backend.documents.get(caller: caller, path: try documentPath(request.path)))
        },
        "set-document": { backend, caller, body in
            let request = try decode(SetDocumentRequest.self, from: body)
            return try encode(try await backend.documents.set(
                caller: caller, path: try documentPath(request.path), data: request.data, merge: request.merge ?? false))
        },
        "update-document": { backend, caller, body in
            let request = try decode(UpdateDocumentRequest.self, from: body)
            return try encode(try await backend.documents.update(caller: caller, path: try documentPath(request.path), fields: request.fields))
        },
        "delete-document": { backend, caller, body in
            let request = try decode(DocumentPathRequest.self, from: body)
            try await backend.documents.delete(caller: caller, path: try documentPath(request.path))
            return try encode(SuccessResponse())
        },
        "query-documents": { backend, caller, body in
            let request = try decode(QueryDocumentsRequest.self, from: body)
            let query = DocumentQuery(
                try collectionPath(request.collection), filters: request.filters ?? [], orderBy: request.orderBy ?? [], limit: request.limit)
            return try encode(QueryDocumentsResponse(documents: try await backend.documents.query(caller: caller, query)))
        },
    ]

    /// Parsed here rather than by `Decodable` so the refusal names the path and what is wrong.
    static func documentPath(_ text: String) throws(DomainError) -> DocumentPath {
        do { return try DocumentPath(text) } catch { throw .invalidArgument("path: \(error.message)") }
    }

    static func collectionPath(_ text: String) throws(DomainError) -> CollectionPath {
        do { return try CollectionPath(text) } catch { throw .invalidArgument("collection: \(error.message)") }
    }
}

/// `{"path": "users/<uid>/contacts/c1"}`: `get-document`, `delete-document`.
public struct DocumentPathRequest: Codable, Sendable {
    public var path: String
    public init(path: String) { self.path = path }
}

/// `set-document`: the whole document, or with `merge: true` the fields to merge in.
public struct SetDocumentRequest: Codable, Sendable {
    public var path: String
    public var data: [String: DocumentValue]
    public var merge: Bool?

    public init(path: String, data: [String: DocumentValue], merge: Bool? = nil) {
        self.path = path
        self.data = data
        self.merge = merge
    }
}

/// `update-document`: values by dotted field path (`"address.city"`).
public struct UpdateDocumentRequest: Codable, Sendable {
    public var path: String
    public var fields: [String: DocumentValue]

    public init(path: String, fields: [String: DocumentValue]) {
        self.path = path
        self.fields = fields
    }
}

/// `query-documents`: one collection, filters (`field`, `op` as `==`, `!=`, `<`, `<=`, `>`,
/// `>=`, `in`, `array-contains`, typed `value`), `orderBy` (`field`, `descending`), `limit`.
public struct QueryDocumentsRequest: Codable, Sendable {
    public var collection: String
    public var filters: [DocumentQuery.Filter]?
    public var orderBy: [DocumentQuery.Order]?
    public var limit: Int?

    public init(_ query: DocumentQuery) {
        collection = query.collection.rawValue
        filters = query.filters
        orderBy = query.orderBy
        limit = query.limit
    }
}

public struct QueryDocumentsResponse: Codable, Sendable, Hashable {
    public var documents: [DocumentSnapshot]
    public init(documents: [DocumentSnapshot]) { self.documents = documents }
}
