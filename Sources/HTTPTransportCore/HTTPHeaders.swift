/// An ordered collection of HTTP header fields whose names compare case-insensitively.
///
/// HTTP field names are case-insensitive, and the servers and transports the wire clients
/// talk to disagree on spelling (`Content-Range` vs `content-range`), so lookups must not depend on
/// case. Insertion order and the original spelling are kept for readable logs.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field.
    public struct Field: Sendable, Equatable {
        /// The name as it was set.
        public var name: String
        /// The value.
        public var value: String
    }

    private var fields: [Field] = []

    /// Creates an empty header set.
    public init() {}

    /// Creates a header set from a dictionary. Later duplicates (by case-insensitive name)
    /// replace earlier ones.
    public init(_ dictionary: [String: String]) {
        for (name, value) in dictionary.sorted(by: { $0.key < $1.key }) { self[name] = value }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { self[name] = value }
    }

    /// The value of the field named `name` (any case), or `nil`. Setting `nil` removes it;
    /// setting a value replaces an existing field of that name, keeping its position.
    public subscript(name: String) -> String? {
        get {
            let key = name.lowercased()
            return fields.first { $0.name.lowercased() == key }?.value
        }
        set {
            let key = name.lowercased()
            if let newValue {
                if let index = fields.firstIndex(where: { $0.name.lowercased() == key }) {
                    fields[index] = Field(name: name, value: newValue)
                    let tail = fields[(index + 1)...].filter { $0.name.lowercased() != key }
                    fields.replaceSubrange((index + 1)..., with: tail)
                } else {
                    fields.append(Field(name: name, value: newValue))
                }
            } else {
                fields.removeAll { $0.name.lowercased() == key }
            }
        }
    }

    /// Copies every field of `other` over this set (other wins on conflicts).
    public mutating func merge(_ other: HTTPHeaders) {
        for field in other { self[field.name] = field.value }
    }

    /// The fields as a dictionary keyed by lower-cased name, convenient for comparisons.
    public var lowercasedDictionary: [String: String] {
        Dictionary(fields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The number of fields.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Two header sets are equal when they hold the same names (ignoring case) and values,
    /// in any order.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.lowercasedDictionary == rhs.lowercasedDictionary
    }
}
