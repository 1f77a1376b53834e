import Hummingbird
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
