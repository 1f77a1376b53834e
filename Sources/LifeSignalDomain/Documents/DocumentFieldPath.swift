import Foundation

/// A field inside a document, possibly nested in maps: `address.city` is field `city` of the
/// map in field `address`.
///
/// Clients write paths dotted, as the SDK's `updateData(["address.city": …])`; on Firestore's
/// wire (update masks, query fields) a segment that is not a plain identifier is quoted in
/// backticks (``firestoreText``), so field names with dots or spaces still work there.
public struct DocumentFieldPath: Sendable, Hashable, CustomStringConvertible {
    public let segments: [String]

    /// Refuses an empty path, one deeper than a document may nest (``DocumentRules/maximumDepth``
    /// segments) and bad names. The depth bound is also what keeps writing along a path from
    /// recursing once per segment of a client's `a.a.a.…` hundreds of thousands long.
    public init(segments: [String]) throws(DomainError) {
        guard !segments.isEmpty else { throw .invalidArgument("A field path cannot be empty") }
        guard segments.count <= DocumentRules.maximumDepth else {
            throw .invalidArgument("A field path has at most \(DocumentRules.maximumDepth) segments (maps nest at most that deep), not \(segments.count)")
        }
        for segment in segments { try DocumentRules.validateFieldName(segment) }
        self.segments = segments
    }

    /// Parses a dotted path (`address.city`), as the SDK does: dots separate, nothing is quoted.
    public init(dotted text: String) throws(DomainError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: \.isEmpty) else { throw .invalidArgument("The field path \"\(text)\" has an empty segment") }
        try self.init(segments: parts)
    }

    /// Parses Firestore's wire form: plain identifiers, or segments in backticks with `\`` and
    /// `\\` escaped, joined by dots.
    public init(firestore text: String) throws(DomainError) {
        var segments: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        var wasQuoted = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted {
                if character == "\\" { escaped = true } else if character == "`" { quoted = false } else { current.append(character) }
            } else if character == "`" {
                quoted = true
                wasQuoted = true
            } else if character == "." {
                segments.append(current)
                current = ""
                wasQuoted = false
            } else {
                current.append(character)
            }
        }
        guard !quoted, !escaped else { throw .invalidArgument("The field path \"\(text)\" has an unclosed backtick") }
        if !current.isEmpty || wasQuoted || !segments.isEmpty { segments.append(current) }
        guard !segments.contains(where: \.isEmpty) else { throw .invalidArgument("The field path \"\(text)\" has an empty segment") }
        try self.init(segments: segments)
    }

    /// Dotted, as a client writes it.
    public var description: String { segments.joined(separator: ".") }

    /// Firestore's wire form: plain identifiers as they are, anything else in backticks.
    public var firestoreText: String {
        segments.map { segment in
            let plain =
                segment.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && segment.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            if plain { return segment }
            return "`" + segment.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "`", with: "\\`") + "`"
        }.joined(separator: ".")
    }

    /// Whether `other` is this path or lies inside it.
    public func isPrefix(of other: DocumentFieldPath) -> Bool {
        other.segments.count >= segments.count && Array(other.segments.prefix(segments.count)) == segments
    }

    /// The value at this path in `fields`, or `nil` when some segment is missing or not a map.
    public func value(in fields: [String: DocumentValue]) -> DocumentValue? {
        var current: DocumentValue = .map(fields)
        for segment in segments {
            guard case .map(let map) = current, let next = map[segment] else { return nil }
            current = next
        }
        return current
    }
}
