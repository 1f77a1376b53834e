import LifeSignalDomain

/// Why a storage request was refused.
public enum StorageFailure: Error, Sendable, Hashable {
    case bucketNotFound(String)
    case objectNotFound(String)
    case invalidPath(String)
    case unauthenticated
    /// The caller may not write there: objects live under the owner's own id.
    case forbidden(String)
    case tooLarge(limit: Int)
    /// The declared `Content-Type` names no format the bucket takes.
    case unsupportedType(String)
    /// The bytes are not an image the bucket takes, not the type declared, unreadable, or
    /// too many pixels: ``ImageRejection`` says which.
    case rejectedImage(ImageRejection)
    case alreadyExists(String)
}
