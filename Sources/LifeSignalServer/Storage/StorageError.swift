import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// A storage refusal as Supabase Storage words it: `{"statusCode","error","message"}`, with
/// `statusCode` as text.
struct StorageError: HTTPResponseError {
    var status: HTTPResponse.Status
    var error: String
    var message: String
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.make(status, ["statusCode": String(status.code), "error": error, "message": message], headers: headers)
    }

    init(status: HTTPResponse.Status, error: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.error = error
        self.message = message
        self.headers = headers
    }

    init(_ failure: StorageFailure) {
        let (status, error, message): (HTTPResponse.Status, String, String) =
            switch failure {
            case .bucketNotFound(let name): (.notFound, "Bucket not found", "Bucket \"\(name)\" not found")
            case .objectNotFound: (.notFound, "not_found", "Object not found")
            case .invalidPath(let why): (.badRequest, "InvalidKey", "Invalid key: \(why)")
            case .unauthenticated: (.unauthorized, "Unauthorized", "Invalid or missing token")
            case .forbidden(let why): (.forbidden, "Unauthorized", "new row violates row-level security policy: \(why)")
            case .tooLarge(let limit): (.contentTooLarge, "Payload too large", "The object exceeded the maximum allowed size of \(limit) bytes")
            case .unsupportedType(let type):
                (.unsupportedMediaType, "invalid_mime_type", "mime type \(type) is not supported: send a PNG, JPEG, WebP or HEIC image")
            case .rejectedImage(let why): Self.status(of: why)
            case .alreadyExists: (.conflict, "Duplicate", "The resource already exists")
            }
        self.init(status: status, error: error, message: message)
    }

    /// A picture refused for its bytes: 415 when they are not the image type declared, 422
    /// when they begin as it but their header cannot be read, 413 when it has too many pixels.
    static func status(of rejection: ImageRejection) -> (HTTPResponse.Status, String, String) {
        switch rejection {
        case .notAnAllowedImage, .mismatch: (.unsupportedMediaType, "invalid_mime_type", rejection.message)
        case .malformed: (.unprocessableContent, "invalid_image", rejection.message)
        case .tooLarge: (.contentTooLarge, "Payload too large", rejection.message)
        }
    }

    static var unavailable: StorageError {
        StorageError(
            status: .serviceUnavailable, error: "unavailable", message: "The database is unavailable; try again shortly",
            headers: DatabaseError.retryAfterHeaders)
    }

    /// Any error a storage route throws, in storage's words. A refused token is
    /// `unauthenticated`, never an anonymous caller.
    static func translating(_ error: any Error) -> StorageError {
        switch error {
        case let error as StorageError: error
        case let failure as StorageFailure: StorageError(failure)
        case let error as DatabaseError where error.isUnavailable: .unavailable
        case BearerTokenError.refused(let why as DatabaseError) where why.isUnavailable: .unavailable
        case is BearerTokenError: StorageError(.unauthenticated)
        default: StorageError(status: .internalServerError, error: "internal", message: "Internal error")
        }
    }
}
