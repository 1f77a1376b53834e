import FirebaseREST
import Foundation
import LifeSignalDomain

/// Firestore's wire types ↔ the domain's documents, and Firestore's errors → domain errors
/// (seed `002_…`'s `StorageError(from:)` table, through ``DomainError`` codes).
enum FirestoreDocumentMapping {
    static func wire(_ value: DocumentValue) -> FirestoreValue {
        switch value {
        case .null: .null
        case .bool(let flag): .boolean(flag)
        case .integer(let number): .integer(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .timestamp(let date): .timestamp(date)
        case .bytes(let data): .bytes(data)
        case .array(let values): .array(values.map(wire))
        case .map(let fields): .map(fields.mapValues(wire))
        }
    }

    static func wire(_ fields: [String: DocumentValue]) -> [String: FirestoreValue] { fields.mapValues(wire) }

    /// Types the domain does not have arrive in the nearest one it does: a reference as its
    /// resource name, a geo point as a map of `latitude` and `longitude`.
    static func domain(_ value: FirestoreValue) -> DocumentValue {
        switch value {
        case .null: .null
        case .boolean(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .double(let number): .double(number)
        case .timestamp(let date): .timestamp(date)
        case .string(let text): .string(text)
        case .bytes(let data): .bytes(data)
        case .reference(let name): .string(name)
        case .geoPoint(let point): .map(["latitude": .double(point.latitude), "longitude": .double(point.longitude)])
        case .array(let values): .array(values.map(domain))
        case .map(let fields): .map(fields.mapValues(domain))
        }
    }

    static func snapshot(_ document: FirestoreDocument) throws -> DocumentSnapshot {
        let path: DocumentPath
        do { path = try DocumentPath(document.path) } catch {
            throw DomainError.internal("Firestore sent a document named \(document.name)")
        }
        return DocumentSnapshot(
            path: path, data: document.fields.mapValues(domain),
            createTime: document.createTime.flatMap(DocumentTimestamp.date(from:)),
            updateTime: document.updateTime.flatMap(DocumentTimestamp.date(from:)))
    }

    static func op(_ op: DocumentQuery.Operator) -> FirestoreFieldOperator {
        switch op {
        case .equal: .equal
        case .notEqual: .notEqual
        case .lessThan: .lessThan
        case .lessThanOrEqual: .lessThanOrEqual
        case .greaterThan: .greaterThan
        case .greaterThanOrEqual: .greaterThanOrEqual
        case .in: .in
        case .arrayContains: .arrayContains
        }
    }

    /// The query as a `structuredQuery` on the collection id, and the parent document to run
    /// it under (`nil` for a root collection).
    static func wire(_ query: DocumentQuery) throws(DomainError) -> (query: FirestoreQuery, parent: String?) {
        var wire = FirestoreQuery(collection: query.collection.id)
        for filter in query.filters {
            wire = wire.where(try DocumentFieldPath(dotted: filter.field).firestoreText, op(filter.op), self.wire(filter.value))
        }
        for order in query.orderBy {
            wire = wire.order(by: try DocumentFieldPath(dotted: order.field).firestoreText, descending: order.descending)
        }
        if let limit = query.limit { wire = wire.limit(limit) }
        return (wire, query.collection.parent?.rawValue)
    }

    /// Firestore's statuses in the domain's words: `NOT_FOUND` (an update of a missing
    /// document) is not found, `PERMISSION_DENIED` (security rules) forbidden,
    /// `UNAUTHENTICATED` unauthenticated, `INVALID_ARGUMENT` invalid, `UNAVAILABLE` and
    /// `DEADLINE_EXCEEDED` a failure to reach Firebase (read as
    /// ``DocumentStorageError/networkError``).
    static func domain(_ error: FirestoreError, path: String) -> DomainError {
        switch error.status {
        case .notFound: .notFound("Document \(path)")
        case .permissionDenied: .forbidden(error.message)
        case .unauthenticated: .unauthenticated
        case .invalidArgument, .outOfRange: .invalidArgument(error.message)
        case .failedPrecondition: .failedPrecondition(error.message)
        case .alreadyExists: .alreadyExists("Document \(path)")
        case .resourceExhausted: .rateLimited(retryAfter: 0)
        case .unavailable, .deadlineExceeded: .internal("Could not reach Firebase: \(error.message)")
        default: .internal(error.message)
        }
    }
}
