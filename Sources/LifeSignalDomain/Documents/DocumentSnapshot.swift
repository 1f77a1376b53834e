import Foundation

/// A document as read at one moment (seed `002_…`'s `DocumentSnapshot`): its path, whether it
/// exists, its fields, and when it was created and last written.
///
/// Reading a missing document is not an error (as in Firestore): the snapshot says
/// `exists == false` and has no fields, so a screen can tell "not there yet" from a failure.
public struct DocumentSnapshot: Sendable, Hashable {
    public var path: DocumentPath
    public var exists: Bool
    public var data: [String: DocumentValue]
    public var createTime: Date?
    public var updateTime: Date?

    public init(path: DocumentPath, exists: Bool = true, data: [String: DocumentValue], createTime: Date? = nil, updateTime: Date? = nil) {
        self.path = path
        self.exists = exists
        self.data = data
        self.createTime = createTime
        self.updateTime = updateTime
    }

    /// The snapshot of a document that is not there.
    public static func missing(_ path: DocumentPath) -> DocumentSnapshot {
        DocumentSnapshot(path: path, exists: false, data: [:])
    }

    /// The document's id, the last segment of its path.
    public var id: String { path.id }

    /// The value at a dotted field path (`address.city`), or `nil`.
    public subscript(field: String) -> DocumentValue? {
        (try? DocumentFieldPath(dotted: field))?.value(in: data)
    }
}

/// `{"path","exists","data","createTime","updateTime"}` with RFC 3339 times and typed values
/// (``DocumentValue``'s JSON): the functions' reply.
extension DocumentSnapshot: Codable {
    private enum CodingKeys: String, CodingKey { case path, id, exists, data, createTime, updateTime }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(DocumentPath.self, forKey: .path)
        exists = try container.decode(Bool.self, forKey: .exists)
        data = try container.decodeIfPresent([String: DocumentValue].self, forKey: .data) ?? [:]
        func time(_ key: CodingKeys) throws -> Date? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let date = DocumentTimestamp.date(from: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\"\(text)\" is not an RFC 3339 timestamp")
            }
            return date
        }
        createTime = try time(.createTime)
        updateTime = try time(.updateTime)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(id, forKey: .id)
        try container.encode(exists, forKey: .exists)
        try container.encode(data, forKey: .data)
        try container.encodeIfPresent(createTime.map(DocumentTimestamp.string(from:)), forKey: .createTime)
        try container.encodeIfPresent(updateTime.map(DocumentTimestamp.string(from:)), forKey: .updateTime)
    }
}
