import Foundation

/// Any JSON value, for the parts of the wire formats whose shape the caller chooses:
/// callable function data, APNs payloads, error details.
///
/// Integers are kept apart from doubles so that an `Int64` survives a round trip exactly.
public enum FirebaseJSON: Sendable, Hashable, Codable {
  case null
  case bool(Bool)
  case integer(Int64)
  case double(Double)
  case string(String)
  case array([FirebaseJSON])
  case object([String: FirebaseJSON])

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .double(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([FirebaseJSON].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: FirebaseJSON].self))
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
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }

  /// Converts any `Encodable` value through `JSONEncoder`.
  public init<T: Encodable>(encoding value: T) throws {
    self = try JSONDecoder().decode(FirebaseJSON.self, from: encodeJSONBody(value))
  }

  /// Decodes the value as `T` through `JSONDecoder`.
  public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
    try JSONDecoder().decode(T.self, from: encodeJSONBody(self))
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The member named `key`, when this is an object.
  public subscript(key: String) -> FirebaseJSON? {
    if case .object(let object) = self { return object[key] }
    return nil
  }
}

extension FirebaseJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
  ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(floatLiteral value: Double) { self = .double(value) }
  public init(arrayLiteral elements: FirebaseJSON...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, FirebaseJSON)...) {
    self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }
  public init(nilLiteral: ()) { self = .null }
}
