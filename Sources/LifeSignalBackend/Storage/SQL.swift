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

    enum Piece { case text(Substring), placeholder(Int) }

    static func forEachPlaceholder(in text: String, _ body: (Piece) -> Void) {
        var quote: Character?
        var chunkStart = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
                index = text.index(after: index)
                continue
            }
            if character == "'" || character == "\"" {
                quote = character
                index = text.index(after: index)
                continue
            }
            if character == "$" {
                var end = text.index(after: index)
                while end < text.endIndex, text[end].isASCII, text[end].isNumber { end = text.index(after: end) }
                if end > text.index(after: index), let number = Int(text[text.index(after: index)..<end]) {
                    body(.text(text[chunkStart..<index]))
                    body(.placeholder(number))
                    chunkStart = end
                    index = end
                    continue
                }
            }
            index = text.index(after: index)
        }
        body(.text(text[chunkStart..<text.endIndex]))
    }
}
