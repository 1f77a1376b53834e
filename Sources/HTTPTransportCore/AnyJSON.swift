import Foundation

/// Any JSON value, for the parts of the wire formats whose shape the caller chooses: GoTrue's
/// `user_metadata`, callable function data, APNs payloads, error details.
///
/// Both wire clients use this one type (FirebaseREST calls it `FirebaseJSON`). Its name and
/// cases are supabase-swift's `AnyJSON`, so code that builds metadata dictionaries compiles
/// unchanged. Integers and doubles are kept apart so that `1` does not round-trip as `1.0`;
/// `Int` is 64 bits on every platform this package supports, so an `Int64` (a Firestore
/// integer, a Google error code) survives a round trip exactly.
public enum AnyJSON: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case integer(Int)
    case double(Double)
    case string(String)
    case object([String: AnyJSON])
    case array([AnyJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: AnyJSON].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        }
    }

    /// Converts any `Encodable` value through `JSONEncoder`.
    public init<T: Encodable>(encoding value: T) throws {
        self = try JSONDecoder().decode(AnyJSON.self, from: JSONEncoder().encode(value))
    }

    /// Decodes the value as `T` through `JSONDecoder`.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }

    /// The member named `key`, when this is an object.
    public subscript(key: String) -> AnyJSON? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The integer, when this is an integer.
    public var intValue: Int? {
        if case .integer(let value) = self { value } else { nil }
    }

    /// The number, when this is an integer or a double.
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// The Boolean, when this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The object, when this is an object.
    public var objectValue: [String: AnyJSON]? {
        if case .object(let value) = self { value } else { nil }
    }

    /// The array, when this is an array.
    public var arrayValue: [AnyJSON]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// Whether this is `null`.
    public var isNil: Bool { self == .null }
}

/// A JSON object, as supabase-swift names it.
public typealias JSONObject = [String: AnyJSON]

extension AnyJSON: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: AnyJSON...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, AnyJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
