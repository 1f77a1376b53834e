import FirebaseREST
import Foundation
import LifeSignalDomain

/// Firebase wire failures → domain errors (seed `000_…`'s "Error Mapping", for Firebase).
///
/// LifeSignal's functions throw `HttpsError(status, message, {code, retryAfter})`, so the
/// domain error comes back exactly by the `code` in `details`. An error without one (from the
/// platform itself: a missing function, a rejected token, a crash) is mapped by its canonical
/// status. Identity Toolkit answers in its own `CODE : detail` words, mapped by code.
enum FirebaseErrorMapping {
    /// What LifeSignal's functions put in `details`.
    struct Details: Decodable {
        var code: String
        var retryAfter: Double?
    }

    static func map(_ error: any Error) -> any Error {
        switch error {
        case let domain as DomainError: return domain
        case is CancellationError: return error
        case let callable as CallableFunctionError: return fromCallable(callable)
        case let auth as IdentityToolkitError: return fromIdentityToolkit(auth)
        case let storage as FirebaseStorageError: return fromStorage(storage)
        case FirebaseAuthSession.SessionError.signedOut: return DomainError.unauthenticated
        case FirebaseTransportError.timedOut(let after):
            return DomainError.internal("Firebase did not answer within \(after); try again")
        case FirebaseTransportError.network(let message): return DomainError.internal("Could not reach Firebase: \(message)")
        case FirebaseTransportError.invalidURL(let url): return DomainError.internal("Invalid Firebase URL \(url)")
        case let decoding as FirebaseDecodingError:
            return DomainError.internal("Firebase sent a reply that does not decode as \(decoding.type)")
        default: return DomainError.internal("Firebase call failed: \(error)")
        }
    }

    static func fromCallable(_ error: CallableFunctionError) -> DomainError {
        if let details = try? error.details?.decode(as: Details.self), !details.code.isEmpty {
            return DomainError(code: details.code, message: error.message, retryAfter: details.retryAfter)
        }
        // A platform page (a function that is not deployed, a proxy) is no sentence to show.
        let isPage = error.message.hasPrefix("<")
        let message = isPage ? "HTTP \(error.httpStatus) from Firebase" : error.message
        switch error.status {
        case .unauthenticated: return .unauthenticated
        case .permissionDenied: return .forbidden(message)
        case .notFound: return isPage ? .notFound("The function") : DomainError(code: "not_found", message: message)
        case .alreadyExists: return DomainError(code: "already_exists", message: message)
        case .invalidArgument, .outOfRange: return .invalidArgument(message)
        case .failedPrecondition: return .failedPrecondition(message)
        case .resourceExhausted: return .rateLimited(retryAfter: 0)
        default: return .internal(message)
        }
    }

    /// Storage has no status names; the SDK's kinds come from the HTTP status. Size and type
    /// limits are security rules there, so they arrive as "unauthorized" (403).
    static func fromStorage(_ error: FirebaseStorageError) -> DomainError {
        switch error.kind {
        case .invalidArgument: .invalidArgument(error.message)
        case .unauthenticated: .unauthenticated
        case .unauthorized: .forbidden(error.message)
        case .objectNotFound: .notFound("File")
        case .preconditionFailed: .failedPrecondition(error.message)
        case .quotaExceeded: .rateLimited(retryAfter: 0)
        case .serverError, .other: .internal(error.message)
        }
    }

    static func fromIdentityToolkit(_ error: IdentityToolkitError) -> DomainError {
        let detail = error.detail ?? error.message
        switch error.code {
        case .invalidCode, .missingCode: return .invalidOTP
        case .sessionExpired, .invalidSessionInfo: return .otpExpired
        case .tooManyAttemptsTryLater: return .tooManyAttempts
        case .invalidPhoneNumber: return .invalidPhone(detail)
        case .phoneNumberExists: return .alreadyExists("An account with this phone number")
        case .tokenExpired, .invalidIDToken, .invalidRefreshToken, .userNotFound, .userDisabled, .credentialTooOldLoginAgain:
            return .unauthenticated
        case .operationNotAllowed: return .failedPrecondition("Phone sign-in is not enabled for this Firebase project")
        default:
            switch error.status {
            case 401: return .unauthenticated
            case 403: return .forbidden(detail)
            case 404: return DomainError(code: "not_found", message: detail)
            case 400: return .invalidArgument(detail)
            case 429: return .rateLimited(retryAfter: 0)
            default: return .internal(detail)
            }
        }
    }
}
