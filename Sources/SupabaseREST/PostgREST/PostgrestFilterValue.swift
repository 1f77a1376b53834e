import Foundation
import RFC3339

/// A value that can be used as a filter operand in PostgREST queries.
///
/// Same protocol as supabase-swift's: ``rawValue`` is the text placed after the operator
/// (`eq.<rawValue>`) before the query string is percent-encoded. Conform your own types
/// (enums of statuses, identifiers, …) by returning their wire spelling.
///
/// | Swift type | `rawValue` |
/// |---|---|
/// | `String` | the string itself |
/// | `Int`, `Double` | decimal text |
/// | `Bool` | `true` / `false` |
/// | `UUID` | upper-case UUID string (Postgres compares UUIDs case-insensitively) |
/// | `Date` | `2024-01-15T12:00:00.000Z` |
/// | `[Element]` | a Postgres array literal `{a,b}`, elements quoted when needed |
/// | `Optional` | the wrapped value, or `NULL` when `nil` |
/// | `AnyJSON`, `JSONObject` | JSON text (sorted keys), for `cs`/`cd` on jsonb |
public protocol PostgrestFilterValue: Sendable {
    /// The text sent to PostgREST as the filter value.
    var rawValue: String { get }
}

extension String: PostgrestFilterValue {
    public var rawValue: String { self }
}

extension Substring: PostgrestFilterValue {
    public var rawValue: String { String(self) }
}

extension Int: PostgrestFilterValue {
    public var rawValue: String { String(self) }
}

extension Int64: PostgrestFilterValue {
    public var rawValue: String { String(self) }
}

extension Int32: PostgrestFilterValue {
    public var rawValue: String { String(self) }
}

extension Double: PostgrestFilterValue {
    public var rawValue: String { "\(self)" }
}

extension Bool: PostgrestFilterValue {
    public var rawValue: String { self ? "true" : "false" }
}

extension UUID: PostgrestFilterValue {
    public var rawValue: String { uuidString }
}

extension Date: PostgrestFilterValue {
    public var rawValue: String { RFC3339.format(self, fractionDigits: 3, zone: .z) }
}

extension Optional: PostgrestFilterValue where Wrapped: PostgrestFilterValue {
    public var rawValue: String { self?.rawValue ?? "NULL" }
}

extension Array: PostgrestFilterValue where Element: PostgrestFilterValue {
    /// A Postgres array literal: `{a,b,c}`. Elements that are empty, spell `NULL`, contain
    /// `, { } " \` or have outer spaces are double-quoted with `\` escapes, so they cannot
    /// break the literal apart. A `nil` element is an SQL `NULL`; a nested array stays a
    /// nested literal.
    public var rawValue: String {
        "{" + map(arrayLiteralElement).joined(separator: ",") + "}"
    }
}

extension AnyJSON: PostgrestFilterValue {
    public var rawValue: String {
        switch self {
        case .null: "NULL"
        case .string(let value): value
        case .bool(let value): value.rawValue
        case .integer(let value): value.rawValue
        case .double(let value): value.rawValue
        case .array(let value): value.rawValue
        case .object: jsonText(self)
        }
    }
}

extension Dictionary: PostgrestFilterValue where Key == String, Value == AnyJSON {
    /// JSON text with sorted keys, for jsonb containment (`cs.{"a":1}`).
    public var rawValue: String { jsonText(.object(self)) }
}

private func jsonText(_ value: AnyJSON) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(value) else { return "null" }
    return String(decoding: data, as: UTF8.self)
}

/// How `element` is spelled inside an array literal.
private func arrayLiteralElement(_ element: some PostgrestFilterValue) -> String {
    if let nested = element as? any NestedArrayLiteral { return nested.nestedLiteral }
    if let optional = element as? any OptionalFilterValue, optional.isNone { return "NULL" }
    if case .null? = element as? AnyJSON { return "NULL" }
    if case .array(let values)? = element as? AnyJSON { return values.rawValue }
    return escapeArrayLiteralElement(element.rawValue)
}

private protocol NestedArrayLiteral { var nestedLiteral: String { get } }
extension Array: NestedArrayLiteral where Element: PostgrestFilterValue {
    var nestedLiteral: String { rawValue }
}

private protocol OptionalFilterValue { var isNone: Bool { get } }
extension Optional: OptionalFilterValue where Wrapped: PostgrestFilterValue {
    var isNone: Bool { self == nil }
}

/// Quotes an element of a Postgres array literal when its text would otherwise be
/// misread: empty, `NULL` (any case), containing `, { } " \`, or with outer whitespace.
func escapeArrayLiteralElement(_ raw: String) -> String {
    let reserved: Set<Character> = [",", "{", "}", "\"", "\\"]
    let needsQuoting =
        raw.isEmpty || raw.caseInsensitiveCompare("NULL") == .orderedSame
        || raw.contains(where: reserved.contains) || raw != raw.trimmingCharacters(in: .whitespaces)
    return needsQuoting ? quoted(raw) : raw
}

/// Quotes an element of an `in.(…)` list when its text would otherwise be misread:
/// containing `, ( ) " \` or with outer whitespace (PostgREST's grammar for `in.(…)` lists).
func escapeInListElement(_ raw: String) -> String {
    let reserved: Set<Character> = [",", "(", ")", "\"", "\\"]
    let needsQuoting =
        raw.contains(where: reserved.contains) || raw != raw.trimmingCharacters(in: .whitespaces)
    return needsQuoting ? quoted(raw) : raw
}

private func quoted(_ raw: String) -> String {
    let escaped = raw.replacingOccurrences(of: "\\", with: "\\\\")
        .replacingOccurrences(of: "\"", with: "\\\"")
    return "\"\(escaped)\""
}
