/// A cursor over the bytes of a logic tree (`(cond,and(cond,cond),…)`) or an `in` list
/// (`(e1,"e,2",…)`), where a value ends at `,` or `)` unless quoted.
///
/// Every step moves forward over the bytes, so a whole parse is linear in its input; prefixes
/// are compared in place, never by copying the rest of the input. Recursion happens only
/// for nested groups, and ``QueryBudget/checkDepth(_:)`` bounds it before each level, so no
/// input can exhaust the stack. Structural characters are all ASCII, so a byte that matches
/// one is never inside a multi-byte character.
struct LogicScanner {
    private let bytes: [UInt8]
    private let whole: String
    private var index = 0
    private(set) var budget: QueryBudget

    init(text: String, budget: QueryBudget) {
        bytes = Array(text.utf8)
        whole = text
        self.budget = budget
    }

    /// The tree that is the whole value of an `or`/`and` pair; trailing input is refused.
    mutating func wholeTree(isAnd: Bool, negated: Bool) throws(RESTError) -> FilterNode {
        let node = try logicTree(isAnd: isAnd, negated: negated, depth: 1)
        try expectEnd(part: "logic tree")
        return node
    }

    /// The list that is the whole value of an `in.` filter; `whole` is the pair's value, for errors.
    mutating func wholeList(whole expression: String) throws(RESTError) -> [String] {
        let items = try list(whole: expression)
        skipSpaces()
        try expectEnd(part: "filter")
        return items
    }

    // MARK: - Grammar

    private mutating func logicTree(isAnd: Bool, negated: Bool, depth: Int) throws(RESTError) -> FilterNode {
        try budget.checkDepth(depth)
        try expect(UInt8(ascii: "("), part: "logic tree")
        var children: [FilterNode] = []
        while true {
            skipSpaces()
            children.append(try condition(depth: depth))
            skipSpaces()
            guard let next = peek else {
                throw RESTError.parse("logic tree", whole, "unexpected end of input expecting \",\" or \")\"")
            }
            index += 1
            if next == UInt8(ascii: ")") { break }
            guard next == UInt8(ascii: ",") else {
                throw RESTError.parse("logic tree", whole, "unexpected \"\(Self.describe(next))\" expecting \",\" or \")\" (line 1, column \(index))")
            }
        }
        return .logic(isAnd: isAnd, negated: negated, children: children)
    }

    /// `col.[not.]op.value` or `[not.]and(…)`/`[not.]or(…)`.
    private mutating func condition(depth: Int) throws(RESTError) -> FilterNode {
        let start = index
        let negated = consume("not.")
        if consume("and") {
            if peek == UInt8(ascii: "(") { return try logicTree(isAnd: true, negated: negated, depth: depth + 1) }
        } else if consume("or") {
            if peek == UInt8(ascii: "(") { return try logicTree(isAnd: false, negated: negated, depth: depth + 1) }
        }
        // Not a group after all: `not` may be a column name (`not.eq.1`), `order` starts with `or`.
        index = start
        try budget.spendCondition(part: "logic tree")
        let columnStart = index
        while let byte = peek, byte != UInt8(ascii: ".") { index += 1 }
        let column = text(columnStart..<index)
        guard peek == UInt8(ascii: "."), RESTQueryParser.isIdentifier(Substring(column)) else {
            throw RESTError.parse("logic tree", whole, "unexpected \"\(column)\" expecting a condition (line 1, column \(index + 1))")
        }
        index += 1
        let predicateNegated = consume("not.")
        let opStart = index
        while let byte = peek, byte != UInt8(ascii: ".") { index += 1 }
        let opText = text(opStart..<index)
        guard peek == UInt8(ascii: "."), let op = FilterOperator(rawValue: opText) else {
            throw RESTError.parse("logic tree", whole, "unexpected \"\(opText)\" expecting operator (eq, gt, ...)")
        }
        index += 1
        let value: FilterValue
        if op == .in {
            value = .list(try list(whole: whole))
        } else {
            value = try RESTQueryParser.operand(op, try self.value(), whole: whole)
        }
        return .predicate(column: column, negated: predicateNegated, op: op, value: value)
    }

    /// `(e1,"e,2",…)`
    private mutating func list(whole expression: String) throws(RESTError) -> [String] {
        try expect(UInt8(ascii: "("), part: "filter")
        skipSpaces()
        var items: [String] = []
        if peek == UInt8(ascii: ")") {
            index += 1
            return []
        }
        while true {
            try budget.spendListItem(part: "filter")
            items.append(try value())
            guard let next = peek else { throw RESTError.parse("filter", expression, "unexpected end of input expecting \")\"") }
            index += 1
            if next == UInt8(ascii: ")") { return items }
        }
    }

    /// A value up to an unbracketed `,` or `)`; a `"…"` value may hold both, with `\` escaping.
    private mutating func value() throws(RESTError) -> String {
        if peek == UInt8(ascii: "\"") {
            index += 1
            var result: [UInt8] = []
            while let byte = peek, byte != UInt8(ascii: "\"") {
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                result.append(bytes[index])
                index += 1
            }
            guard peek == UInt8(ascii: "\"") else { throw RESTError.parse("logic tree", whole, "unterminated quoted value") }
            index += 1
            return String(decoding: result, as: UTF8.self)
        }
        // `{…}` (an array literal) may hold commas; `(…)` inside a value (not at its start) too.
        var depth = 0
        let start = index
        while let byte = peek {
            if byte == UInt8(ascii: "{") || (byte == UInt8(ascii: "(") && depth > 0) { depth += 1 }
            if depth == 0, byte == UInt8(ascii: ",") || byte == UInt8(ascii: ")") { break }
            if depth > 0, byte == UInt8(ascii: "}") || byte == UInt8(ascii: ")") { depth -= 1 }
            index += 1
        }
        return text(start..<index)
    }

    // MARK: - Cursor

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpaces() { while peek == UInt8(ascii: " ") { index += 1 } }

    /// Consumes `literal` if the input continues with it, comparing in place.
    private mutating func consume(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = literal.withUTF8Buffer { literalBytes in
            (0..<count).allSatisfy { bytes[index + $0] == literalBytes[$0] }
        }
        if matches { index += count }
        return matches
    }

    private mutating func expect(_ byte: UInt8, part: String) throws(RESTError) {
        skipSpaces()
        guard peek == byte else {
            let found = peek.map { "\"\(Self.describe($0))\"" } ?? "end of input"
            throw RESTError.parse(part, whole, "unexpected \(found) expecting \"\(Self.describe(byte))\" (line 1, column \(index + 1))")
        }
        index += 1
    }

    private func expectEnd(part: String) throws(RESTError) {
        guard index < bytes.count else { return }
        throw RESTError.parse(part, whole, "unexpected \"\(text(index..<min(bytes.count, index + 20)))\" expecting end of input (line 1, column \(index + 1))")
    }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private static func describe(_ byte: UInt8) -> String {
        byte < 0x80 ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
