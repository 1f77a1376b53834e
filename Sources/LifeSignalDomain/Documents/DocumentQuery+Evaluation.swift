import Foundation

extension DocumentQuery {
    /// The documents of ``collection`` among `documents` that the query returns, in its
    /// order, Firestore's way:
    ///
    /// - a filter never matches a document without the field;
    /// - `==`, `!=` and `in` compare as Firestore does (`1 == 1.0`); `<`, `<=`, `>`, `>=`
    ///   match only values of the operand's type (numbers with numbers, strings with strings…);
    /// - ordering by a field leaves out documents without it, and values of different types
    ///   sort in Firestore's type order (``DocumentValue/compare(_:_:)``);
    /// - ties, and queries without an order, go by document path (in the direction of the
    ///   last ordering);
    /// - the limit is applied last.
    public func evaluate(_ documents: [DocumentSnapshot]) -> [DocumentSnapshot] {
        let filterPaths = filters.map { (try? DocumentFieldPath(dotted: $0.field), $0) }
        let orderPaths = orderBy.map { (try? DocumentFieldPath(dotted: $0.field), $0.descending) }
        var matching = documents.filter { document in
            document.exists && document.path.parent == collection
                && filterPaths.allSatisfy { path, filter in
                    guard let value = path?.value(in: document.data) else { return false }
                    return Self.matches(value, filter.op, filter.value)
                }
                && orderPaths.allSatisfy { path, _ in path?.value(in: document.data) != nil }
        }
        let lastDescending = orderBy.last?.descending ?? false
        matching.sort { left, right in
            for (path, descending) in orderPaths {
                guard let path, let a = path.value(in: left.data), let b = path.value(in: right.data) else { continue }
                let order = DocumentValue.compare(a, b)
                if order != 0 { return descending ? order > 0 : order < 0 }
            }
            return lastDescending ? right.path < left.path : left.path < right.path
        }
        if let limit, matching.count > limit { matching = Array(matching.prefix(max(limit, 0))) }
        return matching
    }

    static func matches(_ value: DocumentValue, _ op: Operator, _ operand: DocumentValue) -> Bool {
        switch op {
        case .equal: return DocumentValue.compare(value, operand) == 0
        case .notEqual: return DocumentValue.compare(value, operand) != 0
        case .in:
            guard case .array(let options) = operand else { return false }
            return options.contains { DocumentValue.compare(value, $0) == 0 }
        case .arrayContains:
            guard case .array(let elements) = value else { return false }
            return elements.contains { DocumentValue.compare($0, operand) == 0 }
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard value.typeOrder == operand.typeOrder else { return false }
            let order = DocumentValue.compare(value, operand)
            switch op {
            case .lessThan: return order < 0
            case .lessThanOrEqual: return order <= 0
            case .greaterThan: return order > 0
            default: return order >= 0
            }
        }
    }
}

extension DocumentValue {
    /// Firestore's order of types: null, booleans, numbers, timestamps, strings, bytes,
    /// arrays, maps.
    var typeOrder: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .integer, .double: 2
        case .timestamp: 3
        case .string: 4
        case .bytes: 5
        case .array: 6
        case .map: 7
        }
    }

    /// Firestore's total order of values: by type first, then within the type (numbers by
    /// value whether integer or double, NaN first; strings by UTF-8 bytes; arrays and maps
    /// element by element, maps by sorted keys). Negative, zero or positive.
    public static func compare(_ a: DocumentValue, _ b: DocumentValue) -> Int {
        if a.typeOrder != b.typeOrder { return a.typeOrder < b.typeOrder ? -1 : 1 }
        switch (a, b) {
        case (.bool(let x), .bool(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.integer(let x), .integer(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.integer, .double), (.double, .integer), (.double, .double): return compareNumbers(a.number, b.number)
        case (.timestamp(let x), .timestamp(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.string(let x), .string(let y)): return compareBytes(Array(x.utf8), Array(y.utf8))
        case (.bytes(let x), .bytes(let y)): return compareBytes(Array(x), Array(y))
        case (.array(let x), .array(let y)):
            for (left, right) in zip(x, y) {
                let order = compare(left, right)
                if order != 0 { return order }
            }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        case (.map(let x), .map(let y)):
            let left = x.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            let right = y.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (l, r) in zip(left, right) {
                let key = compareBytes(Array(l.key.utf8), Array(r.key.utf8))
                if key != 0 { return key }
                let value = compare(l.value, r.value)
                if value != 0 { return value }
            }
            return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
        default: return 0
        }
    }

    private var number: Double {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: .nan
        }
    }

    private static func compareNumbers(_ x: Double, _ y: Double) -> Int {
        if x.isNaN || y.isNaN { return x.isNaN && y.isNaN ? 0 : (x.isNaN ? -1 : 1) }
        return x == y ? 0 : (x < y ? -1 : 1)
    }

    private static func compareBytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        x == y ? 0 : (x.lexicographicallyPrecedes(y) ? -1 : 1)
    }
}
