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
}

extension DatabaseError {
    /// `Retry-After` for an answer given while the database cannot be reached.
    static var retryAfterHeaders: HTTPFields { [.retryAfter: String(retryAfterSeconds)] }
}
