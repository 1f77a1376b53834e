import Foundation

/// An object's metadata as the v0 API returns it.
///
/// `size`, `generation` and `metageneration` are 64-bit numbers sent as **strings**; they are
/// kept as sent and exposed parsed through ``byteCount``.
public struct StorageObjectMetadata: Sendable, Equatable, Codable {
    /// The object path (`avatars/u1.jpg`).
    public var name: String
    public var bucket: String
    public var generation: String?
    public var metageneration: String?
    public var contentType: String?
    public var size: String?
    public var md5Hash: String?
    public var timeCreated: String?
    public var updated: String?
    /// Comma-separated tokens that make a public `…?alt=media&token=` download URL.
    public var downloadTokens: String?
    public var customMetadata: [String: String]?

    /// ``size`` as a number.
    public var byteCount: Int64? { size.flatMap { Int64($0) } }
}
