import Foundation
import RFC3339

/// A document as the REST API returns it: its full resource name, its fields, and the
/// server's timestamps.
///
/// `createTime` and `updateTime` are kept as the exact strings the server sent (nanosecond
/// precision) because an `updateTime` precondition must echo them byte for byte.
public struct FirestoreDocument: Sendable, Equatable, Codable {
    /// `projects/{p}/databases/{d}/documents/{path}`.
    public var name: String
    /// The fields (missing in the JSON when the document is empty).
    public var fields: [String: FirestoreValue]
    public var createTime: String?
    public var updateTime: String?

    /// Creates a document.
    public init(name: String, fields: [String: FirestoreValue], createTime: String? = nil, updateTime: String? = nil) {
        self.name = name
        self.fields = fields
        self.createTime = createTime
        self.updateTime = updateTime
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        fields = try container.decodeIfPresent([String: FirestoreValue].self, forKey: .fields) ?? [:]
        createTime = try container.decodeIfPresent(String.self, forKey: .createTime)
        updateTime = try container.decodeIfPresent(String.self, forKey: .updateTime)
    }

    /// The last path segment: the document id.
    public var id: String { String(name.split(separator: "/").last ?? "") }

    /// The path below `documents/` (`users/u1`).
    public var path: String {
        guard let range = name.range(of: "/documents/") else { return name }
        return String(name[range.upperBound...])
    }

    /// ``updateTime`` parsed (to microseconds).
    public var updateDate: Date? { updateTime.flatMap { RFC3339.parse($0, .strict) } }

    /// Decodes the fields as `T`.
    public func decode<T: Decodable>(_ type: T.Type = T.self, decoder: FirestoreDecoder = FirestoreDecoder()) throws -> T {
        try decoder.decode(type, from: fields)
    }
}

/// A condition the stored document must meet for a write to apply; otherwise the server
/// answers ``FirebaseRPCStatus/failedPrecondition`` (or ``FirebaseRPCStatus/notFound``).
public enum FirestorePrecondition: Sendable, Equatable {
    /// The document must (`true`) or must not (`false`) exist.
    case exists(Bool)
    /// The document must have been last written at exactly this time (optimistic locking);
    /// pass ``FirestoreDocument/updateTime`` unchanged.
    case updateTime(String)

    var queryItem: (String, String) {
        switch self {
        case .exists(let flag): ("currentDocument.exists", flag ? "true" : "false")
        case .updateTime(let time): ("currentDocument.updateTime", time)
        }
    }
}
