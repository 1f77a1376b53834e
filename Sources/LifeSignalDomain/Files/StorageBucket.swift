/// A bucket's rules: who reads, how large, which types. Defined in the domain so the server
/// that enforces them and the clients that check them before uploading share one definition.
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

    /// Whether a file of this `Content-Type` may be stored here.
    public func accepts(_ contentType: String) -> Bool {
        allowedTypes.isEmpty || allowedTypes.contains { contentType.lowercased().hasPrefix($0) }
    }
}
