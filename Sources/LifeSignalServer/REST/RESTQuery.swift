import Foundation

/// A `/rest/v1` read, parsed from the query string: PostgREST's grammar (reference §A.2–A.7)
/// turned into data, before any SQL exists.
struct ReadPlan: Sendable, Hashable {
    var select: [SelectItem] = [.all]
    var filters: [FilterNode] = []
    var order: [OrderTerm] = []
    var limit: Int?
    var offset = 0
}

enum SelectItem: Sendable, Hashable {
    case all
    case column(name: String, alias: String?)
}

enum FilterOperator: String, Sendable, Hashable, CaseIterable {
    case eq, neq, gt, gte, lt, lte, like, ilike, `is`, `in`
    /// Array containment and overlap: `@>`, `<@`, `&&`, with a `{a,b}` literal.
    case cs, cd, ov
}

indirect enum FilterNode: Sendable, Hashable {
    case predicate(column: String, negated: Bool, op: FilterOperator, value: FilterValue)
    case logic(isAnd: Bool, negated: Bool, children: [FilterNode])
}

enum FilterValue: Sendable, Hashable {
    case scalar(String)
    case list([String])
}

struct OrderTerm: Sendable, Hashable {
    var column: String
    var ascending = true
    var nullsFirst: Bool?
}

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
        let spaced = String(text.map { $0 == "+" ? " " : $0 })
        return spaced.removingPercentEncoding ?? spaced
    }

    static func readPlan(_ pairs: [(String, String)]) throws(RESTError) -> ReadPlan {
        var plan = ReadPlan()
        for (key, value) in pairs {
            // PostgreSQL's text cannot hold NUL; refuse it up front with its words, so both
            // engines answer alike and no value is ever cut short on its way to SQL.
            if value.utf8.contains(0) || key.utf8.contains(0) {
                throw RESTError(status: .badRequest, code: "22021", message: "invalid byte sequence for encoding \"UTF8\": 0x00")
            }
            switch key {
            case "select": plan.select = try select(value)
            case "order": plan.order = try order(value)
            case "limit":
                guard let number = Int(value) else { continue }
                guard number >= 0 else {
                    throw RESTError(status: .rangeNotSatisfiable, code: "PGRST103", message: "Requested range not satisfiable",
                                    details: "Limit should be greater than or equal to zero.")
                }
                plan.limit = number
            case "offset": if let number = Int(value), number >= 0 { plan.offset = number }
            case "columns", "on_conflict", "apikey": continue
            case "or", "and", "not.or", "not.and":
                var scanner = Scanner(text: value)
                let negated = key.hasPrefix("not.")
                let node = try scanner.logicTree(isAnd: key.hasSuffix("and"), negated: negated, whole: value)
                plan.filters.append(node)
            default:
                plan.filters.append(try filter(column: key, expression: value))
            }
        }
        return plan
    }

    static func select(_ text: String) throws(RESTError) -> [SelectItem] {
        let trimmed = text.filter { !$0.isWhitespace }
        guard !trimmed.isEmpty else { return [.all] }
        return try trimmed.split(separator: ",", omittingEmptySubsequences: false).map { (item) throws(RESTError) -> SelectItem in
            if item == "*" { return .all }
            let parts = item.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ isIdentifier($0) }) else {
                throw RESTError.parse("select", text, "unexpected \"\(item)\" expecting a column name or *")
            }
            return parts.count == 2 ? .column(name: String(parts[1]), alias: String(parts[0])) : .column(name: String(parts[0]), alias: nil)
        }
    }

    static func order(_ text: String) throws(RESTError) -> [OrderTerm] {
        try text.split(separator: ",").map { (item) throws(RESTError) -> OrderTerm in
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
    static func filter(column: String, expression: String) throws(RESTError) -> FilterNode {
        guard isIdentifier(Substring(column)) else {
            throw RESTError.parse("filter", column, "unexpected column name")
        }
        var rest = Substring(expression)
        var negated = false
        if rest.hasPrefix("not.") {
            negated = true
            rest = rest.dropFirst(4)
        }
        guard let dot = rest.firstIndex(of: "."), let op = FilterOperator(rawValue: String(rest[..<dot])) else {
            throw RESTError.parse("filter", expression, "unexpected \"\(rest.prefix(while: { $0 != "." }))\" expecting \"not\" or operator (eq, gt, ...)")
        }
        let value = String(rest[rest.index(after: dot)...])
        return .predicate(column: column, negated: negated, op: op, value: try operand(op, value, whole: expression))
    }

    static func operand(_ op: FilterOperator, _ value: String, whole: String) throws(RESTError) -> FilterValue {
        switch op {
        case .in:
            var scanner = Scanner(text: value)
            return .list(try scanner.list(whole: whole))
        case .is:
            guard ["null", "not_null", "true", "false", "unknown"].contains(value.lowercased()) else {
                throw RESTError.parse("filter", whole, "unexpected \"\(value)\" expecting null, not_null, true, false or unknown")
            }
            return .scalar(value.lowercased())
        default:
            return .scalar(value)
        }
    }

    static func isIdentifier(_ text: Substring) -> Bool {
        guard !text.isEmpty else { return false }
        // Nearly every name is ASCII: checked by byte, without Unicode property lookups.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                     UInt8(ascii: "_"), UInt8(ascii: "$"): true
                default: false
                }
            }
        }
        return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
    }

    /// A cursor over logic trees and `in` lists, where values end at `,` or `)` unless quoted.
    struct Scanner {
        let characters: [Character]
        var index = 0

        init(text: String) { characters = Array(text) }

        var atEnd: Bool { index >= characters.count }
        var peek: Character? { atEnd ? nil : characters[index] }

        mutating func skipSpaces() { while let c = peek, c == " " { index += 1 } }

        mutating func expect(_ character: Character, whole: String, part: String) throws(RESTError) {
            skipSpaces()
            guard peek == character else {
                throw RESTError.parse(part, whole, "unexpected \(peek.map { "\"\($0)\"" } ?? "end of input") expecting \"\(character)\" (line 1, column \(index + 1))")
            }
            index += 1
        }

        /// `(e1,"e,2",…)`
        mutating func list(whole: String) throws(RESTError) -> [String] {
            try expect("(", whole: whole, part: "filter")
            skipSpaces()
            var items: [String] = []
            if peek == ")" { index += 1; return [] }
            while true {
                items.append(try value(terminators: [",", ")"], whole: whole))
                guard let next = peek else { throw RESTError.parse("filter", whole, "unexpected end of input expecting \")\"") }
                index += 1
                if next == ")" { return items }
            }
        }

        mutating func value(terminators: Set<Character>, whole: String) throws(RESTError) -> String {
            var result = ""
            if peek == "\"" {
                index += 1
                while let c = peek, c != "\"" {
                    if c == "\\", index + 1 < characters.count { index += 1 }
                    result.append(characters[index])
                    index += 1
                }
                guard peek == "\"" else { throw RESTError.parse("logic tree", whole, "unterminated quoted value") }
                index += 1
                return result
            }
            var depth = 0
            while let c = peek {
                if c == "{" || c == "(" && depth > 0 { depth += 1 }
                if depth == 0, terminators.contains(c) { break }
                if c == "}" || c == ")" && depth > 0 { depth -= 1 }
                result.append(c)
                index += 1
            }
            return result
        }

        /// `(cond,cond,…)` where cond is `col.[not.]op.value` or `[not.]and(...)`/`[not.]or(...)`.
        mutating func logicTree(isAnd: Bool, negated: Bool, whole: String) throws(RESTError) -> FilterNode {
            try expect("(", whole: whole, part: "logic tree")
            var children: [FilterNode] = []
            while true {
                skipSpaces()
                children.append(try condition(whole: whole))
                skipSpaces()
                guard let next = peek else {
                    throw RESTError.parse("logic tree", whole, "unexpected end of input expecting \",\" or \")\"")
                }
                index += 1
                if next == ")" { break }
                guard next == "," else { throw RESTError.parse("logic tree", whole, "unexpected \"\(next)\" expecting \",\" or \")\"") }
            }
            return .logic(isAnd: isAnd, negated: negated, children: children)
        }

        mutating func condition(whole: String) throws(RESTError) -> FilterNode {
            var negated = false
            if rest.hasPrefix("not.") { negated = true; index += 4 }
            if rest.hasPrefix("and(") { index += 3; return try logicTree(isAnd: true, negated: negated, whole: whole) }
            if rest.hasPrefix("or(") { index += 2; return try logicTree(isAnd: false, negated: negated, whole: whole) }
            if negated { index -= 4 }
            var column = ""
            while let c = peek, c != "." { column.append(c); index += 1 }
            guard peek == ".", RESTQueryParser.isIdentifier(Substring(column)) else {
                throw RESTError.parse("logic tree", whole, "unexpected \"\(column)\" expecting a condition (line 1, column \(index + 1))")
            }
            index += 1
            var predicateNegated = false
            if rest.hasPrefix("not.") { predicateNegated = true; index += 4 }
            var opText = ""
            while let c = peek, c != "." { opText.append(c); index += 1 }
            guard peek == ".", let op = FilterOperator(rawValue: opText) else {
                throw RESTError.parse("logic tree", whole, "unexpected \"\(opText)\" expecting operator (eq, gt, ...)")
            }
            index += 1
            let value: FilterValue
            if op == .in {
                value = .list(try list(whole: whole))
            } else {
                let text = try self.value(terminators: [",", ")"], whole: whole)
                value = try RESTQueryParser.operand(op, text, whole: whole)
            }
            return .predicate(column: column, negated: predicateNegated, op: op, value: value)
        }

        var rest: String { atEnd ? "" : String(characters[index...]) }
    }
}
