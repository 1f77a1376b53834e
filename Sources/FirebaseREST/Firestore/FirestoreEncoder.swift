import Foundation

/// Turns an `Encodable` value into ``FirestoreValue``s, the way the Firebase SDK's
/// `Firestore.Encoder` does for `setData(from:)`.
///
/// `Date` becomes a timestamp, `Data` bytes, ``FirestoreGeoPoint`` a geo point,
/// ``FirestoreReference`` a reference, and a ``FirestoreValue`` passes through untouched.
/// Integers become `integerValue` (a `UInt64` above `Int64.max` throws: Firestore cannot
/// store it). A `nil` optional becomes `nullValue` by default, so that a document written
/// with a mask really clears the field instead of leaving the old value.
public struct FirestoreEncoder: Sendable {
    /// What a `nil` optional property turns into.
    public enum NilStrategy: Sendable {
        /// `nullValue` (the default).
        case null
        /// Nothing: the field is left out of the map.
        case omit
    }

    /// What a `nil` optional property turns into.
    public var nilStrategy: NilStrategy

    /// Creates an encoder.
    public init(nilStrategy: NilStrategy = .null) { self.nilStrategy = nilStrategy }

    /// Encodes `value`, which may be of any shape.
    public func encodeValue<T: Encodable>(_ value: T) throws -> FirestoreValue {
        let box = EncodingBox()
        try box.store(value, encoder: _FirestoreEncoder(box: box, codingPath: [], nilStrategy: nilStrategy))
        return box.resolve()
    }

    /// Encodes `value` as a document's fields; it must encode as a keyed container.
    public func encode<T: Encodable>(_ value: T) throws -> [String: FirestoreValue] {
        guard case .map(let fields) = try encodeValue(value) else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "A Firestore document must encode as a keyed container"))
        }
        return fields
    }
}

/// A node of the value being built. A class so nested containers can fill it after it has
/// been linked into its parent.
final class EncodingBox {
    enum Content {
        case empty
        case value(FirestoreValue)
        case map([String: EncodingBox])
        case array([EncodingBox])
    }
    var content: Content = .empty

    func resolve() -> FirestoreValue {
        switch content {
        case .empty: .map([:])
        case .value(let value): value
        case .map(let children): .map(children.mapValues { $0.resolve() })
        case .array(let children): .array(children.map { $0.resolve() })
        }
    }

    func child(forKey key: String) -> EncodingBox {
        let box = EncodingBox()
        if case .map(var children) = content {
            children[key] = box
            content = .map(children)
        } else {
            content = .map([key: box])
        }
        return box
    }

    func appendChild() -> EncodingBox {
        let box = EncodingBox()
        if case .array(var children) = content {
            children.append(box)
            content = .array(children)
        } else {
            content = .array([box])
        }
        return box
    }

    /// Stores a value, recognising the types Firestore represents natively.
    func store<T: Encodable>(_ value: T, encoder: _FirestoreEncoder) throws {
        switch value {
        case let value as FirestoreValue: content = .value(value)
        case let date as Date: content = .value(.timestamp(date))
        case let data as Data: content = .value(.bytes(data))
        case let point as FirestoreGeoPoint: content = .value(.geoPoint(point))
        case let reference as FirestoreReference: content = .value(.reference(reference.name))
        case let url as URL: content = .value(.string(url.absoluteString))
        case let decimal as Decimal: content = .value(.double(NSDecimalNumber(decimal: decimal).doubleValue))
        default: try value.encode(to: encoder)
        }
    }
}

struct _FirestoreEncoder: Encoder {
    let box: EncodingBox
    let codingPath: [any CodingKey]
    let nilStrategy: FirestoreEncoder.NilStrategy
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .map = box.content {} else { box.content = .map([:]) }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = box.content {} else { box.content = .array([]) }
        return UnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    func nested(_ box: EncodingBox, _ key: any CodingKey) -> _FirestoreEncoder {
        _FirestoreEncoder(box: box, codingPath: codingPath + [key], nilStrategy: nilStrategy)
    }
}

/// Converts any integer, rejecting the unsigned ones Firestore cannot hold.
private func integer<T: BinaryInteger>(_ value: T, _ path: [any CodingKey]) throws -> FirestoreValue {
    guard let exact = Int64(exactly: value) else {
        throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(value) does not fit in Int64"))
    }
    return .integer(exact)
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: _FirestoreEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func put(_ value: FirestoreValue, _ key: Key) { encoder.box.child(forKey: key.stringValue).content = .value(value) }

    mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.boolean(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(try integer(value, codingPath + [key]), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(try integer(value, codingPath + [key]), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = encoder.box.child(forKey: key.stringValue)
        try child.store(value, encoder: encoder.nested(child, key))
    }

    // Synthesized `Encodable` calls `encodeIfPresent` for optionals; the default skips `nil`.
    // Route every overload through one place so ``FirestoreEncoder/NilStrategy`` applies.
    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else if encoder.nilStrategy == .null {
            put(.null, key)
        }
    }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.nested(encoder.box.child(forKey: key.stringValue), key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.nested(encoder.box.child(forKey: key.stringValue), key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.nested(encoder.box.child(forKey: "super"), FirestoreCodingKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.nested(encoder.box.child(forKey: key.stringValue), key)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: _FirestoreEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int {
        if case .array(let children) = encoder.box.content { return children.count }
        return 0
    }
    private var nextKey: FirestoreCodingKey { FirestoreCodingKey(index: count) }

    mutating func encodeNil() throws { encoder.box.appendChild().content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = nextKey
        let child = encoder.box.appendChild()
        try child.store(value, encoder: encoder.nested(child, key))
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        return encoder.nested(encoder.box.appendChild(), key).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        return encoder.nested(encoder.box.appendChild(), key).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return encoder.nested(encoder.box.appendChild(), key)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let encoder: _FirestoreEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    func set(_ value: FirestoreValue) { encoder.box.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.boolean(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.double(value)) }
    mutating func encode(_ value: Float) throws { set(.double(Double(value))) }
    mutating func encode(_ value: Int) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(try integer(value, codingPath)) }
    mutating func encode(_ value: UInt8) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { set(try integer(value, codingPath)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.box.store(value, encoder: encoder) }
}

/// A coding key for array indices and synthetic keys.
struct FirestoreCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ string: String) {
        stringValue = string
        intValue = nil
    }
    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { self.init(index: intValue) }
}
