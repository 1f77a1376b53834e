/// A SQL statement with its parameters, written once for both engines.
///
/// Build it by interpolation: every interpolated value becomes a numbered parameter (`$1`,
/// `$2`, …), never text spliced into the statement, so no value can change what a statement
/// does. SQLite receives the same numbers as `?1`, `?2`, …. Use ``raw(_:)`` only for
/// identifiers and fragments the code itself chose.
public struct SQL: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var text: String
    public private(set) var bindings: [SQLValue]

    public init(stringLiteral value: String) {
        text = value
        bindings = []
    }

    public init(stringInterpolation: StringInterpolation) {
        text = stringInterpolation.text
        bindings = stringInterpolation.bindings
    }

    public init(_ text: String, bindings: [SQLValue] = []) {
        self.text = text
        self.bindings = bindings
    }

    /// A fragment of trusted SQL text, such as a quoted identifier.
    public static func raw(_ text: String) -> SQL { SQL(text) }

    /// Appends `other`, renumbering its parameters after this statement's.
    public mutating func append(_ other: SQL) {
        // A fragment without parameters has no placeholders to renumber (most of a built
        // statement: names, keywords, operators), so it is copied as it is.
        guard !other.bindings.isEmpty else {
            text += other.text
            return
        }
        text += Self.renumber(other.text, offset: bindings.count)
        bindings += other.bindings
    }

    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// Joins fragments with a separator, renumbering parameters.
    public static func join(_ parts: [SQL], separator: String) -> SQL {
        var result = SQL("")
        for (index, part) in parts.enumerated() {
            if index > 0 { result.append(SQL(separator)) }
            result.append(part)
        }
        return result
    }

    /// The statement text with `$n` placeholders rewritten for SQLite (`?n`).
    public var sqliteText: String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        Self.forEachPlaceholder(in: text) { piece in
            switch piece {
            case .text(let chunk): output += chunk
            case .placeholder(let number): output += "?\(number)"
            }
        }
        return output
    }

    public var description: String { text }

    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        var text = ""
        var bindings: [SQLValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 3)
        }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        public mutating func appendInterpolation(_ value: SQLValue) {
            bindings.append(value)
            text += "$\(bindings.count)"
        }

        public mutating func appendInterpolation(_ value: String?) { appendInterpolation(SQLValue(value)) }
        public mutating func appendInterpolation(_ value: Int?) { appendInterpolation(SQLValue(value)) }
        public mutating func appendInterpolation(_ value: Bool?) { appendInterpolation(SQLValue(value)) }
        public mutating func appendInterpolation(_ value: Double) { appendInterpolation(SQLValue.double(value)) }

        /// Interpolates a fragment, renumbering its parameters.
        public mutating func appendInterpolation(_ fragment: SQL) {
            text += SQL.renumber(fragment.text, offset: bindings.count)
            bindings += fragment.bindings
        }
    }

    // Placeholders are `$` followed by digits outside quotes; dollar signs inside string
    // literals or quoted identifiers are left alone.
    static func renumber(_ text: String, offset: Int) -> String {
        guard offset > 0 else { return text }
        var output = ""
        forEachPlaceholder(in: text) { piece in
            switch piece {
            case .text(let chunk): output += chunk
            case .placeholder(let number): output += "$\(number + offset)"
            }
        }
        return output
    }

    enum Piece {
        case text(Substring)
        case placeholder(Int)
    }

    /// Walks `text` byte by byte: every delimiter is ASCII, so a UTF-8 index next to one is
    /// always a character boundary, and a walk by `Character` (grapheme breaking) cost a
    /// measurable share of each REST read.
    static func forEachPlaceholder(in text: String, _ body: (Piece) -> Void) {
        let bytes = text.utf8
        var quote: UInt8?
        var chunkStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            bytes.formIndex(after: &index)
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                quote = byte
                continue
            }
            guard byte == UInt8(ascii: "$") else { continue }
            let dollar = bytes.index(before: index)
            var end = index
            var number = 0
            var digits = 0
            while end < bytes.endIndex, case let digit = bytes[end], digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") {
                number = digits < 18 ? number * 10 + Int(digit - UInt8(ascii: "0")) : number
                digits += 1
                bytes.formIndex(after: &end)
            }
            // More than 18 digits would overflow: left as text, as `Int(_:)` refused it before.
            guard digits > 0, digits <= 18 else { continue }
            body(.text(text[chunkStart..<dollar]))
            body(.placeholder(number))
            chunkStart = end
            index = end
        }
        body(.text(text[chunkStart..<bytes.endIndex]))
    }

}
