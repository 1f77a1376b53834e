import Foundation

/// An error Firebase Storage answered with (`{"error":{"code":404,"message":"Not Found."}}`).
///
/// The v0 API carries no `status` string, so the kind comes from the HTTP status — which is
/// also how the iOS SDK maps them (403 → unauthorized by rules, 404 → object not found, …).
public struct FirebaseStorageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, in the SDK's terms.
    public enum Kind: Sendable, Equatable {
        case invalidArgument
        /// No or an invalid ID token (401).
        case unauthenticated
        /// Security rules refused (403).
        case unauthorized
        case objectNotFound
        /// A generation or metageneration condition failed (412).
        case preconditionFailed
        case quotaExceeded
        case serverError
        case other
    }

    public var kind: Kind
    /// The server's message, or the raw body.
    public var message: String
    public var httpStatus: Int

    /// Creates an error.
    public init(kind: Kind, message: String, httpStatus: Int) {
        self.kind = kind
        self.message = message
        self.httpStatus = httpStatus
    }

    init(response: HTTPResponse) {
        let kind: Kind =
            switch response.status {
            case 400: .invalidArgument
            case 401: .unauthenticated
            case 403: .unauthorized
            case 404: .objectNotFound
            case 412: .preconditionFailed
            case 429: .quotaExceeded
            case 500...599: .serverError
            default: .other
            }
        self.init(kind: kind, message: response.errorMessage, httpStatus: response.status)
    }

    public var description: String { "Storage \(kind) (\(httpStatus)): \(message)" }
}
