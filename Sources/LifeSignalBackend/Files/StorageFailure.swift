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
