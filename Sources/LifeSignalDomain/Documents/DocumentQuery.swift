import Foundation

/// A query over one collection, as Firestore's: filters AND-ed together, an order, a limit.
///
/// ```swift
/// let query = DocumentQuery(try CollectionPath("users/\(me)/contacts"))
///     .where("age", .greaterThanOrEqual, 18)
///     .order(by: "name")
///     .limit(20)
/// ```
///
/// Results follow Firestore's semantics (``evaluate(_:)``), defined here once so every backend
/// answers the same query with the same documents in the same order.
public struct DocumentQuery: Sendable, Hashable, Codable {
    public enum Operator: String, Sendable, Hashable, Codable, CaseIterable {
        case equal = "=="
        case notEqual = "!="
        case lessThan = "<"
        case lessThanOrEqual = "<="
        case greaterThan = ">"
        case greaterThanOrEqual = ">="
        /// The field equals one of the values of an array operand (at most 30).
        case `in`
        /// The field is an array holding the operand.
        case arrayContains = "array-contains"
    }

    public struct Filter: Sendable, Hashable, Codable {
        /// A dotted field path.
        public var field: String
        public var op: Operator
        public var value: DocumentValue

        public init(field: String, op: Operator, value: DocumentValue) {
            self.field = field
            self.op = op
            self.value = value
        }
    }

    public struct Order: Sendable, Hashable, Codable {
        /// A dotted field path.
        public var field: String
        public var descending: Bool

        public init(field: String, descending: Bool = false) {
            self.field = field
            self.descending = descending
        }

        /// `descending` may be left out, meaning ascending.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            field = try container.decode(String.self, forKey: .field)
            descending = try container.decodeIfPresent(Bool.self, forKey: .descending) ?? false
        }
    }

    /// Firestore's limit on the values of an `in` filter.
    public static let maximumInValues = 30
    /// The most documents one query returns.
    public static let maximumLimit = 1000

    public var collection: CollectionPath
    public var filters: [Filter]
    public var orderBy: [Order]
    public var limit: Int?

    public init(_ collection: CollectionPath, filters: [Filter] = [], orderBy: [Order] = [], limit: Int? = nil) {
        self.collection = collection
        self.filters = filters
        self.orderBy = orderBy
        self.limit = limit
    }

    /// Adds a filter (AND).
    public func `where`(_ field: String, _ op: Operator, _ value: DocumentValue) -> DocumentQuery {
        var copy = self
        copy.filters.append(Filter(field: field, op: op, value: value))
        return copy
    }

    /// Adds an ordering after the existing ones.
    public func order(by field: String, descending: Bool = false) -> DocumentQuery {
        var copy = self
        copy.orderBy.append(Order(field: field, descending: descending))
        return copy
    }

    public func limit(_ count: Int) -> DocumentQuery {
        var copy = self
        copy.limit = count
        return copy
    }

    /// Refuses malformed queries: bad field paths, an `in` without 1–30 values, a limit
    /// outside 1–``maximumLimit``.
    public func validate() throws(DomainError) {
        for filter in filters {
            _ = try DocumentFieldPath(dotted: filter.field)
            if filter.op == .in {
                guard case .array(let values) = filter.value, (1...Self.maximumInValues).contains(values.count) else {
                    throw .invalidArgument("An in filter on \(filter.field) takes an array of 1 to \(Self.maximumInValues) values")
                }
            }
        }
        for order in orderBy { _ = try DocumentFieldPath(dotted: order.field) }
        if let limit, !(1...Self.maximumLimit).contains(limit) {
            throw .invalidArgument("limit must be between 1 and \(Self.maximumLimit), not \(limit)")
        }
    }
}
