import Foundation
import LifeSignalDomain

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
