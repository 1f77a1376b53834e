import Foundation
import RFC3339

/// A latitude/longitude pair, Firestore's `geoPointValue`.
public struct FirestoreGeoPoint: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    /// Creates a point.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// A reference to another document, Firestore's `referenceValue`: the full resource name
/// (`projects/p/databases/(default)/documents/users/u1`).
public struct FirestoreReference: Sendable, Hashable, Codable {
    public var name: String
    /// Creates a reference from a full resource name.
    public init(name: String) { self.name = name }
}

/// One Firestore value in its typed REST form.
///
/// On the wire every value is an object with exactly one key naming its type —
/// `{"integerValue":"42"}`, `{"mapValue":{"fields":{…}}}`. Integers travel as **strings**
/// because JSON numbers lose precision past 2^53; this enum keeps them as `Int64`.
public enum FirestoreValue: Sendable, Hashable {
    case null
    case boolean(Bool)
    case integer(Int64)
    case double(Double)
    /// A timestamp, written with microsecond precision.
    case timestamp(Date)
    case string(String)
    case bytes(Data)
    case reference(String)
    case geoPoint(FirestoreGeoPoint)
    /// An array; Firestore rejects arrays directly inside arrays.
    case array([FirestoreValue])
    case map([String: FirestoreValue])
}

extension FirestoreValue: Codable {
    private enum WireKey: String, CodingKey {
        case nullValue, booleanValue, integerValue, doubleValue, timestampValue, stringValue, bytesValue
        case referenceValue, geoPointValue, arrayValue, mapValue
    }
    private struct ArrayBody: Codable { var values: [FirestoreValue]? }
    private struct MapBody: Codable { var fields: [String: FirestoreValue]? }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "A Firestore value must have exactly one key"))
        }
        switch key {
        case .nullValue: self = .null
        case .booleanValue: self = .boolean(try container.decode(Bool.self, forKey: key))
        case .integerValue:
            // Sent as a string; some emulators and hand-written fixtures use a number.
            if let text = try? container.decode(String.self, forKey: key) {
                guard let value = Int64(text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "Not an Int64: \(text)")
                }
                self = .integer(value)
            } else {
                self = .integer(try container.decode(Int64.self, forKey: key))
            }
        case .doubleValue:
            if let text = try? container.decode(String.self, forKey: key) {
                // Non-finite doubles are spelled "NaN", "Infinity", "-Infinity".
                switch text {
                case "NaN": self = .double(.nan)
                case "Infinity": self = .double(.infinity)
                case "-Infinity": self = .double(-.infinity)
                default:
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "Not a double: \(text)")
                }
            } else {
                self = .double(try container.decode(Double.self, forKey: key))
            }
        case .timestampValue:
            let text = try container.decode(String.self, forKey: key)
            guard let date = RFC3339.parse(text, .strict) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "Bad timestamp: \(text)")
            }
            self = .timestamp(date)
        case .stringValue: self = .string(try container.decode(String.self, forKey: key))
        case .bytesValue:
            let text = try container.decode(String.self, forKey: key)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "Bad base64")
            }
            self = .bytes(data)
        case .referenceValue: self = .reference(try container.decode(String.self, forKey: key))
        case .geoPointValue:
            // Zero coordinates are omitted by the server (proto3 defaults).
            struct Loose: Decodable { var latitude: Double?, longitude: Double? }
            let point = try container.decode(Loose.self, forKey: key)
            self = .geoPoint(FirestoreGeoPoint(latitude: point.latitude ?? 0, longitude: point.longitude ?? 0))
        case .arrayValue: self = .array(try container.decode(ArrayBody.self, forKey: key).values ?? [])
        case .mapValue: self = .map(try container.decode(MapBody.self, forKey: key).fields ?? [:])
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        switch self {
        case .null: try container.encodeNil(forKey: .nullValue)
        case .boolean(let value): try container.encode(value, forKey: .booleanValue)
        case .integer(let value): try container.encode(String(value), forKey: .integerValue)
        case .double(let value):
            if value.isNaN {
                try container.encode("NaN", forKey: .doubleValue)
            } else if value.isInfinite {
                try container.encode(value > 0 ? "Infinity" : "-Infinity", forKey: .doubleValue)
            } else {
                try container.encode(value, forKey: .doubleValue)
            }
        case .timestamp(let date): try container.encode(RFC3339.format(date, zone: .z), forKey: .timestampValue)
        case .string(let value): try container.encode(value, forKey: .stringValue)
        case .bytes(let data): try container.encode(data.base64EncodedString(), forKey: .bytesValue)
        case .reference(let name): try container.encode(name, forKey: .referenceValue)
        case .geoPoint(let point): try container.encode(point, forKey: .geoPointValue)
        case .array(let values): try container.encode(ArrayBody(values: values), forKey: .arrayValue)
        case .map(let fields): try container.encode(MapBody(fields: fields), forKey: .mapValue)
        }
    }
}

extension FirestoreValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByFloatLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(arrayLiteral elements: FirestoreValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, FirestoreValue)...) {
        self = .map(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    public init(nilLiteral: ()) { self = .null }
}
