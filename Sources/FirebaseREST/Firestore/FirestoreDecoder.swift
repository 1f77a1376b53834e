import Foundation
import RFC3339

/// Turns ``FirestoreValue``s back into `Decodable` values; the inverse of
/// ``FirestoreEncoder``.
///
/// Lenient where Firestore itself is: an integer decodes into a `Double` property, an
/// integral double into an `Int` one, and a reference or timestamp string into a `String`.
/// Strict where data could be lost: an integer that does not fit the property's type throws
/// instead of wrapping.
public struct FirestoreDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `T` from a single value.
    public func decode<T: Decodable>(_ type: T.Type, from value: FirestoreValue) throws -> T {
        try _FirestoreDecoder(value: value, codingPath: []).decodeValue(T.self)
    }

    /// Decodes `T` from a document's fields.
    public func decode<T: Decodable>(_ type: T.Type, from fields: [String: FirestoreValue]) throws -> T {
        try decode(type, from: .map(fields))
    }
}

struct _FirestoreDecoder: Decoder {
    let value: FirestoreValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let fields) = value else { throw mismatch([String: FirestoreValue].self) }
        return KeyedDecodingContainer(KeyedContainer<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else { throw mismatch([FirestoreValue].self) }
        return UnkeyedContainer(values: values, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleContainer(decoder: self) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(type), found \(value)"))
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == FirestoreValue.self, let value = value as? T { return value }
        if T.self == Date.self {
            switch value {
            case .timestamp(let date): if let date = date as? T { return date }
            case .string(let text): if let date = RFC3339.parse(text, .strict) as? T { return date }
            default: break
            }
            throw mismatch(Date.self)
        }
        if T.self == Data.self {
            guard case .bytes(let data) = value, let result = data as? T else { throw mismatch(Data.self) }
            return result
        }
        if T.self == FirestoreGeoPoint.self {
            guard case .geoPoint(let point) = value, let result = point as? T else { throw mismatch(FirestoreGeoPoint.self) }
            return result
        }
        if T.self == FirestoreReference.self {
            guard case .reference(let name) = value, let result = FirestoreReference(name: name) as? T else {
                throw mismatch(FirestoreReference.self)
            }
            return result
        }
        if T.self == URL.self {
            guard case .string(let text) = value, let url = URL(string: text), let result = url as? T else {
                throw mismatch(URL.self)
            }
            return result
        }
        return try T(from: self)
    }

    func bool() throws -> Bool {
        guard case .boolean(let flag) = value else { throw mismatch(Bool.self) }
        return flag
    }

    func string() throws -> String {
        switch value {
        case .string(let text), .reference(let text): return text
        case .timestamp(let date): return RFC3339.format(date, zone: .z)
        default: throw mismatch(String.self)
        }
    }

    func double() throws -> Double {
        switch value {
        case .double(let number): return number
        case .integer(let number): return Double(number)
        default: throw mismatch(Double.self)
        }
    }

    func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .integer(let number):
            guard let result = T(exactly: number) else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(number) does not fit \(T.self)"))
            }
            return result
        case .double(let number):
            guard let result = T(exactly: number) else { throw mismatch(T.self) }
            return result
        default: throw mismatch(T.self)
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [String: FirestoreValue]
    let codingPath: [any CodingKey]
    var allKeys: [Key] { fields.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { fields[key.stringValue] != nil }

    func child(_ key: Key) throws -> _FirestoreDecoder {
        guard let value = fields[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No field \(key.stringValue)"))
        }
        return _FirestoreDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { fields[key.stringValue] == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try child(key).double()) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).integer(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).integer(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).integer(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).integer(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).integer(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder {
        _FirestoreDecoder(value: fields["super"] ?? .null, codingPath: codingPath + [FirestoreCodingKey("super")])
    }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        _FirestoreDecoder(value: fields[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let values: [FirestoreValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    init(values: [FirestoreValue], codingPath: [any CodingKey]) {
        self.values = values
        self.codingPath = codingPath
    }

    mutating func next() throws -> _FirestoreDecoder {
        let key = FirestoreCodingKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                FirestoreValue.self, .init(codingPath: codingPath + [key], debugDescription: "Array exhausted"))
        }
        defer { currentIndex += 1 }
        return _FirestoreDecoder(value: values[currentIndex], codingPath: codingPath + [key])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next().bool() }
    mutating func decode(_ type: String.Type) throws -> String { try next().string() }
    mutating func decode(_ type: Double.Type) throws -> Double { try next().double() }
    mutating func decode(_ type: Int.Type) throws -> Int { try next().integer(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next().integer(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let decoder: _FirestoreDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool() }
    func decode(_ type: String.Type) throws -> String { try decoder.string() }
    func decode(_ type: Double.Type) throws -> Double { try decoder.double() }
    func decode(_ type: Float.Type) throws -> Float { Float(try decoder.double()) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
