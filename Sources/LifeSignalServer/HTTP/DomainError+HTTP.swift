import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

extension DomainError {
    /// The HTTP status a rule's failure travels with; the seeds' adapters map statuses back
    /// (401 unauthorized, 404 not found, 400 bad request, 5xx failure).
    var httpStatus: HTTPResponse.Status {
        switch self {
        case .invalidPhone, .invalidArgument, .failedPrecondition, .checkInTooSoon: .badRequest
        case .invalidOTP, .otpExpired: .forbidden
        case .unauthenticated: .unauthorized
        case .forbidden: .forbidden
        case .notFound: .notFound
        case .alreadyExists: .conflict
        case .tooManyAttempts, .rateLimited: .tooManyRequests
        case .internal: .internalServerError
        }
    }

    /// `{"code","message"}` plus `retry_after` (and a `Retry-After` header) when there is a wait.
    var response: Response {
        var headers: HTTPFields = [:]
        var extra: [String: String] = [:]
        if let wait = retryAfter {
            let seconds = String(Int(wait.rounded(.up)))
            headers[.retryAfter] = seconds
            extra["retry_after"] = seconds
        }
        return JSONResponse.error(httpStatus, code: code, message: message, extra: extra, headers: headers)
    }
}

extension DatabaseError {
    /// `Retry-After` for an answer given while the database cannot be reached.
    static var retryAfterHeaders: HTTPFields { [.retryAfter: String(retryAfterSeconds)] }

    /// A function's answer while the database cannot be reached (``isUnavailable``): 503 in
    /// the functions' shape, `{"code":"unavailable","message",…}` with `Retry-After`, so a
    /// client retries instead of reporting a failure of the function itself.
    static var functionUnavailableResponse: Response {
        JSONResponse.error(.serviceUnavailable, code: "unavailable", message: "The database is unavailable; try again shortly",
                           extra: ["retry_after": String(retryAfterSeconds)], headers: retryAfterHeaders)
    }
}
