import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain
import Logging

/// A function's refusal as an Edge Function words it: `{"code","message"}`, plus
/// `retry_after` (and a `Retry-After` header) when the caller should wait and try again.
struct FunctionError: HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Seconds to wait, as text: sent as `retry_after` and `Retry-After`.
    var retryAfter: String?

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        var extra: [String: String] = [:]
        if let retryAfter {
            headers[.retryAfter] = retryAfter
            extra["retry_after"] = retryAfter
        }
        return JSONResponse.error(status, code: code, message: message, extra: extra, headers: headers)
    }

    /// A rule's failure, with the status its adapters map back (``DomainError/httpStatus``).
    init(_ error: DomainError) {
        self.init(
            status: error.httpStatus, code: error.code, message: error.message,
            retryAfter: error.retryAfter.map { String(Int($0.rounded(.up))) })
    }

    init(status: HTTPResponse.Status, code: String, message: String, retryAfter: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// 503 while the database cannot be reached, so a client retries instead of reporting a
    /// failure of the function itself.
    static var unavailable: FunctionError {
        FunctionError(
            status: .serviceUnavailable, code: "unavailable", message: "The database is unavailable; try again shortly",
            retryAfter: String(DatabaseError.retryAfterSeconds))
    }

    /// Any error a function route throws, in the functions' words. An unexpected one is
    /// logged: the client learns nothing of it, the operator needs to.
    static func translating(_ error: any Error, function name: String, logger: Logger) -> FunctionError {
        switch error {
        case let error as FunctionError: return error
        case let error as DomainError: return FunctionError(error)
        case let error as DatabaseError where error.isUnavailable: return .unavailable
        case BackendFunctions.Failure.badRequest(let why): return FunctionError(status: .badRequest, code: "invalid_argument", message: why)
        case let error as BodyTooLarge:
            return FunctionError(status: .contentTooLarge, code: "payload_too_large", message: "Request body exceeds \(error.limit) bytes")
        // As the platform's verify_jwt: a function runs only with a valid bearer JWT.
        case BearerTokenError.missing:
            return FunctionError(status: .unauthorized, code: "unauthenticated", message: "Missing authorization header")
        case BearerTokenError.refused(let why as DatabaseError) where why.isUnavailable: return .unavailable
        case BearerTokenError.refused: return FunctionError(status: .unauthorized, code: "unauthenticated", message: "Invalid JWT")
        default:
            logger.error("function \(name) failed: \(String(reflecting: error))")
            return FunctionError(status: .internalServerError, code: "internal", message: "The function failed")
        }
    }
}
