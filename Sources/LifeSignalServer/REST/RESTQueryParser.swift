import Foundation

/// PostgREST's query-string grammar (`select`, filters with their operators, `or`/`and` trees, `order`, `limit`/`offset`) read into a ``ReadPlan``.
///
/// Every step is linear in its input and bounded by ``QueryLimits``: a stranger's query
/// string is refused with a 400 before any SQL runs, however long or deep it is. Names are
/// checked by byte (ASCII) or by Unicode scalar, never by `Character`: grapheme breaking is
/// slow, and a combining mark after a `"` would hide the quote from a `Character` scan.
enum RESTQueryParser {
    /// Splits a raw query string into decoded pairs: form decoding, so `+` is a space.
    ///
    /// Walks the bytes: `&` and `=` are ASCII, so the indices found are character boundaries,
    /// and splitting by `Character` (grapheme breaking) was a measurable share of a read.
    static func pairs(_ query: String?) -> [(String, String)] {
        guard let query, !query.isEmpty else { return [] }
        let bytes = query.utf8
        var result: [(String, String)] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.endIndex
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                result.append((decode(query[start..<equals]), decode(query[bytes.index(after: equals)..<end])))
            }
            start = end < bytes.endIndex ? bytes.index(after: end) : end
        }
        return result
    }

    static func decode(_ text: Substring) -> String {
        // Most pairs need no decoding; Foundation's replacement is slow on Linux.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        var bytes = Array(text.utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "+") { bytes[index] = UInt8(ascii: " ") }
        let spaced = String(decoding: bytes, as: UTF8.self)
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The keys a read or write reads itself; every other key is a filter on a column.
    static let reservedKeys: Set<String> = ["select", "order", "limit", "offset", "columns", "on_conflict", "apikey"]

    static func readPlan(_ pairs: [(String, String)], limits: QueryLimits = .standard) throws(RESTError) -> ReadPlan {
        var plan = ReadPlan()
        var budget = QueryBudget(limits)
        for (key, value) in pairs {
            try refuseNUL(key, value)
            switch key {
            case "select": plan.select = try select(value, limits: limits)
            case "order": plan.order = try order(value, limits: limits)
            case "limit":
                guard let number = Int(value) else { continue }
                guard number >= 0 else {
                    throw RESTError(
                        status: .rangeNotSatisfiable, code: .unsatisfiableRange, message: "Requested range not satisfiable",
                        details: "Limit should be greater than or equal to zero.")
                }
                plan.limit = number
            case "offset": if let number = Int(value), number >= 0 { plan.offset = number }
            case "columns", "on_conflict", "apikey": continue
            default: plan.filters.append(try filterNode(key: key, value: value, budget: &budget))
            }
        }
        return plan
    }

    /// The filters of a write's query string (its other keys are read by the write plan).
    static func filters(_ pairs: [(String, String)], limits: QueryLimits = .standard) throws(RESTError) -> [FilterNode] {
        var budget = QueryBudget(limits)
        var result: [FilterNode] = []
        for (key, value) in pairs where !reservedKeys.contains(key) {
            try refuseNUL(key, value)
            result.append(try filterNode(key: key, value: value, budget: &budget))
        }
        return result
    }

    /// PostgreSQL's text cannot hold NUL; refused up front with its words, so both engines
    /// answer alike and no value is ever cut short on its way to SQL.
    private static func refuseNUL(_ key: String, _ value: String) throws(RESTError) {
        if value.utf8.contains(0) || key.utf8.contains(0) {
            throw RESTError(status: .badRequest, code: .characterNotInRepertoire, message: "invalid byte sequence for encoding \"UTF8\": 0x00")
        }
    }

    /// One filter pair: a logic tree (`or`, `and`, `not.or`, `not.and`) or `column=[not.]op.value`.
    static func filterNode(key: String, value: String, budget: inout QueryBudget) throws(RESTError) -> FilterNode {
        switch key {
        case "or", "and", "not.or", "not.and":
            var scanner = LogicScanner(text: value, budget: budget)
            defer { budget = scanner.budget }
            return try scanner.wholeTree(isAnd: key.hasSuffix("and"), negated: key.hasPrefix("not."))
        default:
            return try filter(column: key, expression: value, budget: &budget)
        }
    }

    static func select(_ text: String, limits: QueryLimits = .standard) throws(RESTError) -> [SelectItem] {
        let trimmed = String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace }))
        guard !trimmed.isEmpty else { return [.all] }
        let items = trimmed.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard items.count <= limits.maxSelectItems else {
            throw RESTError.limit("select", "more than \(limits.maxSelectItems) items")
        }
        return try items.map { (bytes) throws(RESTError) -> SelectItem in
            let item = Substring(bytes)
            if item == "*" { return .all }
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ isIdentifier($0) }) else {
                throw RESTError.parse("select", text, "unexpected \"\(item)\" expecting a column name or *")
            }
            return parts.count == 2 ? .column(name: String(parts[1]), alias: String(parts[0])) : .column(name: String(parts[0]), alias: nil)
        }
    }

    static func order(_ text: String, limits: QueryLimits = .standard) throws(RESTError) -> [OrderTerm] {
        let items = text.utf8.split(separator: UInt8(ascii: ","))
        guard items.count <= limits.maxOrderTerms else {
            throw RESTError.limit("order", "more than \(limits.maxOrderTerms) terms")
        }
        return try items.map { (bytes) throws(RESTError) -> OrderTerm in
            let item = Substring(bytes)
            let parts = item.split(separator: ".")
            guard let name = parts.first, isIdentifier(name), parts.count <= 3 else {
                throw RESTError.parse("order", text, "unexpected \"\(item)\" expecting a column name")
            }
            var term = OrderTerm(column: String(name))
            for modifier in parts.dropFirst() {
                switch modifier {
                case "asc": term.ascending = true
                case "desc": term.ascending = false
                case "nullsfirst": term.nullsFirst = true
                case "nullslast": term.nullsFirst = false
                default: throw RESTError.parse("order", text, "unexpected \"\(modifier)\" expecting \"asc\", \"desc\", \"nullsfirst\" or \"nullslast\"")
                }
            }
            return term
        }
    }

    /// `column=[not.]op.value`: after the operator the rest is the value, verbatim.
    static func filter(column: String, expression: String, budget: inout QueryBudget) throws(RESTError) -> FilterNode {
        guard isIdentifier(Substring(column)) else {
            throw RESTError.parse("filter", column, "unexpected column name")
        }
        try budget.spendCondition(part: "filter")
        var rest = Substring(expression)
        var negated = false
        if rest.hasPrefix("not.") {
            negated = true
            rest = rest.dropFirst(4)
        }
        guard let dot = rest.utf8.firstIndex(of: UInt8(ascii: ".")), let op = FilterOperator(rawValue: String(rest[..<dot])) else {
            let name = rest.utf8.prefix { $0 != UInt8(ascii: ".") }
            throw RESTError.parse("filter", expression, "unexpected \"\(Substring(name))\" expecting \"not\" or operator (eq, gt, ...)")
        }
        let value = String(rest[rest.utf8.index(after: dot)...])
        let operand: FilterValue
        if op == .in {
            var scanner = LogicScanner(text: value, budget: budget)
            defer { budget = scanner.budget }
            operand = .list(try scanner.wholeList(whole: expression))
        } else {
            operand = try self.operand(op, value, whole: expression)
        }
        return .predicate(column: column, negated: negated, op: op, value: operand)
    }

    /// A scalar operand; `is` takes only its keywords.
    static func operand(_ op: FilterOperator, _ value: String, whole: String) throws(RESTError) -> FilterValue {
        guard op == .is else { return .scalar(value) }
        guard ["null", "not_null", "true", "false", "unknown"].contains(value.lowercased()) else {
            throw RESTError.parse("filter", whole, "unexpected \"\(value)\" expecting null, not_null, true, false or unknown")
        }
        return .scalar(value.lowercased())
    }

    /// A column name or alias: letters, digits, `_` and `$`, as PostgreSQL's unquoted names.
    static func isIdentifier(_ text: Substring) -> Bool {
        guard !text.isEmpty else { return false }
        // Nearly every name is ASCII: checked by byte, without Unicode property lookups.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.allSatisfy(isASCIINameByte)
        }
        return text.unicodeScalars.allSatisfy { scalar in
            if scalar.isASCII { return isASCIINameByte(UInt8(scalar.value)) }
            // Marks too, so a decomposed "é" is a name as its composed form is.
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            }
        }
    }

    private static func isASCIINameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "$"):
            true
        default: false
        }
    }
}
