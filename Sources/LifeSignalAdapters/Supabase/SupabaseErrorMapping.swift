import Foundation
import LifeSignalDomain
import SupabaseREST

/// Wire failures → domain errors, the seed's "Error Mapping" made exact.
///
/// Our server words every rule's failure as `{"code", "message", "retry_after"?}`, so the
/// domain error comes back by its code. A body without a code (another gateway, a real
/// Supabase function) falls back to the seed's status mapping: 401 unauthorized, 404 not
/// found, 400 bad request, anything else a processing failure.
enum SupabaseErrorMapping {
    struct WireError: Decodable {
        var code: String?
        var message: String?
        var msg: String?
        var error: String?
        var retryAfter: String?

        enum CodingKeys: String, CodingKey {
            case code, message, msg, error
            case retryAfter = "retry_after"
        }
    }

    static func map(_ error: any Error) -> any Error {
        switch error {
        case let domain as DomainError:
            return domain
        case FunctionsError.httpError(let status, let data):
            return fromBody(status: status, data: data)
        case FunctionsError.relayError:
            return DomainError.internal("The functions gateway failed")
        case let auth as AuthError:
            return fromAuth(auth)
        case let postgrest as PostgrestError:
            switch postgrest.code {
            case "PGRST116": return DomainError.notFound("The record")
            case "42501": return DomainError.forbidden(postgrest.message)
            case "PGRST301", "PGRST303": return DomainError.unauthenticated
            case "23505": return DomainError.alreadyExists(postgrest.message)
            case let code where code?.hasPrefix("22") == true || code?.hasPrefix("PGRST1") == true:
                return DomainError.invalidArgument(postgrest.message)
            default: return DomainError.internal(postgrest.message)
            }
        default:
            return DomainError.internal("Network or decoding failure: \(error)")
        }
    }

    static func fromBody(status: Int, data: Data) -> DomainError {
        let wire = try? JSONDecoder().decode(WireError.self, from: data)
        let message = wire?.message ?? wire?.msg ?? wire?.error ?? "HTTP \(status)"
        if let code = wire?.code, !code.isEmpty, Int(code) == nil {
            return DomainError(code: code, message: message, retryAfter: wire?.retryAfter.flatMap(TimeInterval.init))
        }
        switch status {
        case 401: return .unauthenticated
        case 403: return .forbidden(message)
        case 404: return .notFound(message)
        case 400, 422: return .invalidArgument(message)
        case 409: return .alreadyExists(message)
        case 429: return .rateLimited(retryAfter: 0)
        default: return .internal(message)
        }
    }

    static func fromAuth(_ error: AuthError) -> DomainError {
        switch error {
        case .sessionMissing: return .unauthenticated
        case .api(let code, let message, let status):
            switch code {
            case "invalid_phone", "invalid_otp", "otp_expired", "too_many_attempts":
                return DomainError(code: code, message: message)
            case "validation_failed" where message.lowercased().contains("phone"): return .invalidPhone(message)
            case "phone_exists", "email_exists", "user_already_exists": return .alreadyExists(message)
            case "no_authorization", "bad_jwt", "session_not_found", "user_not_found": return .unauthenticated
            // The server asks a session that is not fresh to prove itself before it changes how
            // the account signs in (docs/security.md, "Sessions"). Until the apps ask for a
            // reauthentication code, a fresh sign-in is the way through, and the message says so.
            case "reauthentication_needed", "reauthentication_not_valid":
                return .failedPrecondition("Changing how you sign in needs a recent sign-in: sign out, sign in again, and try again straight away")
            default: return fromBody(status: status, data: Data())
            }
        default:
            return .internal("Auth failure: \(error)")
        }
    }
}
