import Foundation

/// One value in a document, with Firestore's types.
///
/// Integers and doubles are different types (as in Firestore, where `1` and `1.0` are stored
/// apart though they compare equal), and timestamps are their own type rather than strings,
/// so a round trip through any backend gives back exactly what was written. Timestamps keep
/// microseconds, as Firestore does.
public enum DocumentValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case timestamp(Date)
    case bytes(Data)
    /// Arrays may not hold arrays directly (a Firestore rule, ``DocumentRules``).
    case array([DocumentValue])
    case map([String: DocumentValue])
}

/// JSON with the type kept: each value is an object with one key naming its type —
/// `{"integer":"42"}` (a string, so no JSON reader rounds it), `{"double":1.5}` (`"NaN"`,
/// `"Infinity"`, `"-Infinity"` as strings), `{"timestamp":"2024-05-01T12:30:00.123456Z"}`,
/// `{"string":"x"}`, `{"boolean":true}`, `{"null":null}`, `{"bytes":"<base64>"}`,
/// `{"array":[…]}`, `{"map":{"field":…}}`. This is how the functions and the `documents` table
/// carry values.
extension DocumentValue: Codable {
    private enum Tag: String, CodingKey { case null, boolean, integer, double, string, timestamp, bytes, array, map }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Tag.self)
        guard container.allKeys.count == 1, let tag = container.allKeys.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "A value is an object with exactly one of the keys null, boolean, integer, double, string, timestamp, bytes, array, map"))
        }
        func corrupt(_ why: String) -> DecodingError { .dataCorruptedError(forKey: tag, in: container, debugDescription: why) }
        switch tag {
        case .null: self = .null
        case .boolean: self = .bool(try container.decode(Bool.self, forKey: tag))
        case .integer:
            let text = try container.decode(String.self, forKey: tag)
            guard let value = Int64(text) else { throw corrupt("\"\(text)\" is not a 64-bit integer") }
            self = .integer(value)
        case .double:
            if let text = try? container.decode(String.self, forKey: tag) {
                switch text {
                case "NaN": self = .double(.nan)
                case "Infinity": self = .double(.infinity)
                case "-Infinity": self = .double(-.infinity)
                default: throw corrupt("\"\(text)\" is not a double")
                }
            } else {
                self = .double(try container.decode(Double.self, forKey: tag))
            }
        case .string: self = .string(try container.decode(String.self, forKey: tag))
        case .timestamp:
            let text = try container.decode(String.self, forKey: tag)
            guard let date = DocumentTimestamp.date(from: text) else { throw corrupt("\"\(text)\" is not an RFC 3339 timestamp") }
            self = .timestamp(date)
        case .bytes:
            let text = try container.decode(String.self, forKey: tag)
            guard let data = Data(base64Encoded: text) else { throw corrupt("bytes are not base64") }
            self = .bytes(data)
        case .array: self = .array(try container.decode([DocumentValue].self, forKey: tag))
        case .map: self = .map(try container.decode([String: DocumentValue].self, forKey: tag))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Tag.self)
        switch self {
        case .null: try container.encodeNil(forKey: .null)
        case .bool(let value): try container.encode(value, forKey: .boolean)
        case .integer(let value): try container.encode(String(value), forKey: .integer)
        case .double(let value):
            if value.isNaN {
                try container.encode("NaN", forKey: .double)
            } else if value.isInfinite {
                try container.encode(value > 0 ? "Infinity" : "-Infinity", forKey: .double)
            } else {
                try container.encode(value, forKey: .double)
            }
        case .string(let value): try container.encode(value, forKey: .string)
        case .timestamp(let date): try container.encode(DocumentTimestamp.string(from: date), forKey: .timestamp)
        case .bytes(let data): try container.encode(data.base64EncodedString(), forKey: .bytes)
        case .array(let values): try container.encode(values, forKey: .array)
        case .map(let fields): try container.encode(fields, forKey: .map)
        }
    }
}

extension DocumentValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: DocumentValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, DocumentValue)...) {
        self = .map(Dictionary(elements) { _, last in last })
    }
    public init(nilLiteral: ()) { self = .null }
}

/// Document fields as the JSON text the functions and the `documents` table hold.
public enum DocumentJSON {
    public static func encode(_ fields: [String: DocumentValue]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(fields), as: UTF8.self)
    }

    public static func decode(_ text: String) throws -> [String: DocumentValue] {
        try JSONDecoder().decode([String: DocumentValue].self, from: Data(text.utf8))
    }
}
