/// A bucket's rules: who reads, how large, which types.
public struct StorageBucket: Sendable, Hashable {
    public let name: String
    /// Anyone may download, without a token.
    public let isPublic: Bool
    public let maximumBytes: Int
    /// Accepted `Content-Type` prefixes (`image/`); empty accepts any.
    public let allowedTypes: [String]

    /// Profile pictures: public read, owner write under `<user id>/…`, images up to 5 MB.
    public static let avatars = StorageBucket(name: "avatars", isPublic: true, maximumBytes: 5 * 1024 * 1024, allowedTypes: ["image/"])

    public static let all: [StorageBucket] = [.avatars]

    public static func named(_ name: String) -> StorageBucket? { all.first { $0.name == name } }

    func accepts(_ contentType: String) -> Bool {
        allowedTypes.isEmpty || allowedTypes.contains { contentType.lowercased().hasPrefix($0) }
    }
}

/// Why a storage request was refused.
public enum StorageFailure: Error, Sendable, Hashable {
    case bucketNotFound(String)
    case objectNotFound(String)
    case invalidPath(String)
    case unauthenticated
    /// The caller may not write there: objects live under the owner's own id.
    case forbidden(String)
    case tooLarge(limit: Int)
    case unsupportedType(String)
    case alreadyExists(String)
}
