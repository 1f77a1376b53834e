import HTTPTypes
import LifeSignalBackend
import LifeSignalDomain

/// What a page says, and with which status, when a rule refuses: the rule's own message,
/// which never names another person's data.
enum WebErrors {
    static func status(of error: DomainError) -> HTTPResponse.Status {
        switch error {
        case .invalidPhone, .invalidArgument, .failedPrecondition, .checkInTooSoon: .badRequest
        case .invalidOTP, .otpExpired, .forbidden: .forbidden
        case .unauthenticated: .unauthorized
        case .notFound: .notFound
        case .alreadyExists: .conflict
        case .tooManyAttempts, .rateLimited: .tooManyRequests
        case .internal: .internalServerError
        }
    }

    static func text(of error: DomainError) -> String {
        switch error {
        case .internal: "Something went wrong. Nothing was changed."
        default: error.message
        }
    }

    /// Sign-in refusals in plain words; an unknown account and a wrong password read the same.
    static func text(of refusal: AuthRefusal) -> String {
        switch refusal {
        case .invalidCredentials, .userNotFound: "That email and password do not match an account."
        case .invalidEmail: "That is not an email address."
        case .emailNotConfirmed: "Confirm your email address first: look for our message."
        case .phoneNotConfirmed: "Confirm your phone number first."
        case .sessionExpired: "You were signed out. Please sign in again."
        case .captchaFailed: "Please try again in a moment."
        default: "That did not work. Please try again."
        }
    }
}
