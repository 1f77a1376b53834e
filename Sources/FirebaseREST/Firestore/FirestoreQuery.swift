import Foundation

/// A comparison for a field filter.
public enum FirestoreFieldOperator: String, Sendable {
    case lessThan = "LESS_THAN"
    case lessThanOrEqual = "LESS_THAN_OR_EQUAL"
    case greaterThan = "GREATER_THAN"
    case greaterThanOrEqual = "GREATER_THAN_OR_EQUAL"
    case equal = "EQUAL"
    case notEqual = "NOT_EQUAL"
    case arrayContains = "ARRAY_CONTAINS"
    case arrayContainsAny = "ARRAY_CONTAINS_ANY"
    case `in` = "IN"
    case notIn = "NOT_IN"
}

/// A test on a field without an operand.
public enum FirestoreUnaryOperator: String, Sendable {
    case isNull = "IS_NULL"
    case isNaN = "IS_NAN"
    case isNotNull = "IS_NOT_NULL"
    case isNotNaN = "IS_NOT_NAN"
}

/// A `where` clause: a field comparison, a unary test, or an AND/OR of other filters.
public indirect enum FirestoreFilter: Sendable, Equatable {
    case field(String, FirestoreFieldOperator, FirestoreValue)
    case unary(String, FirestoreUnaryOperator)
    case and([FirestoreFilter])
    case or([FirestoreFilter])

    var wire: FirestoreWireJSON {
        switch self {
        case .field(let path, let op, let value):
            .object(["fieldFilter": .object(["field": fieldReference(path), "op": .string(op.rawValue), "value": .value(value)])])
        case .unary(let path, let op):
            .object(["unaryFilter": .object(["field": fieldReference(path), "op": .string(op.rawValue)])])
        case .and(let filters): composite("AND", filters)
        case .or(let filters): composite("OR", filters)
        }
    }

    private func composite(_ op: String, _ filters: [FirestoreFilter]) -> FirestoreWireJSON {
        .object(["compositeFilter": .object(["op": .string(op), "filters": .array(filters.map(\.wire))])])
    }
}

func fieldReference(_ path: String) -> FirestoreWireJSON { .object(["fieldPath": .string(path)]) }

/// A position in the query's order: the values of the `orderBy` fields, and whether the
/// cursor sits before (`startAt`/`endBefore`) or after (`startAfter`/`endAt`) that position.
public struct FirestoreCursor: Sendable, Equatable {
    public var values: [FirestoreValue]
    public var before: Bool
    /// Creates a cursor.
    public init(values: [FirestoreValue], before: Bool) {
        self.values = values
        self.before = before
    }
    var wire: FirestoreWireJSON { .object(["values": .array(values.map { .value($0) }), "before": .bool(before)]) }
}

/// A `structuredQuery` over one collection id, built fluently:
///
/// ```swift
/// let query = FirestoreQuery(collection: "checkins")
///   .where("userId", .equal, "u1")
///   .order(by: "at", descending: true)
///   .limit(20)
/// ```
///
/// Several `where` calls are joined with AND, as in the SDK.
public struct FirestoreQuery: Sendable, Equatable {
    /// The collection id (the last segment, not a path); use the `parent` argument of
    /// ``FirestoreClient/runQuery(_:parent:)`` for subcollections.
    public var collectionID: String
    /// Whether to query every collection with this id below the parent (a collection group).
    public var allDescendants: Bool
    /// The fields to return; `nil` returns whole documents.
    public var select: [String]?
    public var filter: FirestoreFilter?
    public var orderBy: [(field: String, descending: Bool)]
    public var startAt: FirestoreCursor?
    public var endAt: FirestoreCursor?
    public var offset: Int?
    public var limit: Int?

    /// Creates a query over the collection `collection`.
    public init(collection: String, allDescendants: Bool = false) {
        collectionID = collection
        self.allDescendants = allDescendants
        orderBy = []
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.collectionID == rhs.collectionID && lhs.allDescendants == rhs.allDescendants && lhs.select == rhs.select
            && lhs.filter == rhs.filter && lhs.orderBy.map(\.field) == rhs.orderBy.map(\.field)
            && lhs.orderBy.map(\.descending) == rhs.orderBy.map(\.descending) && lhs.startAt == rhs.startAt
            && lhs.endAt == rhs.endAt && lhs.offset == rhs.offset && lhs.limit == rhs.limit
    }

    /// Adds a filter, AND-ed with any existing one.
    public func filter(_ filter: FirestoreFilter) -> Self {
        var copy = self
        switch copy.filter {
        case nil: copy.filter = filter
        case .and(let existing)?: copy.filter = .and(existing + [filter])
        case let existing?: copy.filter = .and([existing, filter])
        }
        return copy
    }

    /// Adds a field comparison.
    public func `where`(_ field: String, _ op: FirestoreFieldOperator, _ value: FirestoreValue) -> Self {
        filter(.field(field, op, value))
    }

    /// Adds a unary test.
    public func `where`(_ field: String, _ op: FirestoreUnaryOperator) -> Self { filter(.unary(field, op)) }

    /// Adds an ordering.
    public func order(by field: String, descending: Bool = false) -> Self {
        var copy = self
        copy.orderBy.append((field, descending))
        return copy
    }

    /// Limits the number of results.
    public func limit(_ count: Int) -> Self {
        var copy = self
        copy.limit = count
        return copy
    }

    /// Skips results.
    public func offset(_ count: Int) -> Self {
        var copy = self
        copy.offset = count
        return copy
    }

    /// Starts at (`before: true`) or after (`before: false`) the position `values`.
    public func start(at values: [FirestoreValue], before: Bool = true) -> Self {
        var copy = self
        copy.startAt = FirestoreCursor(values: values, before: before)
        return copy
    }

    /// Ends before (`before: true`) or at (`before: false`) the position `values`.
    public func end(at values: [FirestoreValue], before: Bool = false) -> Self {
        var copy = self
        copy.endAt = FirestoreCursor(values: values, before: before)
        return copy
    }

    /// Selects only these fields (a projection).
    public func select(_ fields: [String]) -> Self {
        var copy = self
        copy.select = fields
        return copy
    }

    /// The `{"structuredQuery": …}` body.
    var body: FirestoreWireJSON {
        var from: [String: FirestoreWireJSON] = ["collectionId": .string(collectionID)]
        if allDescendants { from["allDescendants"] = .bool(true) }
        var query: [String: FirestoreWireJSON] = ["from": .array([.object(from)])]
        if let select { query["select"] = .object(["fields": .array(select.map(fieldReference))]) }
        if let filter { query["where"] = filter.wire }
        if !orderBy.isEmpty {
            query["orderBy"] = .array(
                orderBy.map {
                    .object(["field": fieldReference($0.field), "direction": .string($0.descending ? "DESCENDING" : "ASCENDING")])
                })
        }
        if let startAt { query["startAt"] = startAt.wire }
        if let endAt { query["endAt"] = endAt.wire }
        if let offset { query["offset"] = .int(offset) }
        if let limit { query["limit"] = .int(limit) }
        return .object(["structuredQuery": .object(query)])
    }
}
