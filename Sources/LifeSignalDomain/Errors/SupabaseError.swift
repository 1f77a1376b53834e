import Foundation

/// Seed `000_…`'s `SupabaseError`: what its `SupabaseBaseAdapter.callFunction` throws for a
/// function call that did not succeed, keyed on nothing but the HTTP status.
///
/// The seed's per-domain tables (``AlertError/init(_:during:)``,
/// ``ContactError/init(_:during:)``, `NotificationError.init(_: SupabaseError)`) are
/// written against these five cases, so they are kept exactly; LifeSignal's own adapters
/// carry the richer ``DomainError`` instead.
public enum SupabaseError: DomainErrorRefining, Hashable, CaseIterable {
    /// HTTP 401, or no ID token to send: the caller is not signed in.
    case unauthorized
    /// HTTP 404: the function, or what it was asked about, does not exist.
    case notFound
    /// HTTP 400: the function refused the request as it stands.
    case badRequest
    /// Any other non-2xx status (the seed's `default:` row: 403, 409, 429 and every 5xx).
    case serverError
    /// The reply was not an HTTP response at all, or (LifeSignal's reading) a 2xx whose body
    /// does not decode as the function's response.
    case invalidResponse

    /// The seed's status table: `nil` for a 2xx (success), 401 → ``unauthorized``, 404 →
    /// ``notFound``, 400 → ``badRequest``, any other status → ``serverError``; a number that is
    /// no HTTP status (outside 100...599) → ``invalidResponse``.
    public init?(status: Int) {
        switch status {
        case 200...299: return nil
        case 401: self = .unauthorized
        case 404: self = .notFound
        case 400: self = .badRequest
        case 100...599: self = .serverError
        default: self = .invalidResponse
        }
    }

    /// The status LifeSignal's server answers `error` with (`DomainError.httpStatus` in
    /// LifeSignalServer), read through the seed's status table:
    ///
    /// | `DomainError` code | status | case |
    /// |---|---|---|
    /// | `unauthenticated` | 401 | ``unauthorized`` |
    /// | `not_found` | 404 | ``notFound`` |
    /// | `invalid_phone`, `invalid_argument`, `failed_precondition`, `check_in_too_soon` | 400 | ``badRequest`` |
    /// | `invalid_otp`, `otp_expired`, `forbidden` | 403 | ``serverError`` |
    /// | `already_exists` | 409 | ``serverError`` |
    /// | `too_many_attempts`, `rate_limited` | 429 | ``serverError`` |
    /// | `internal` | 500 | ``serverError`` |
    public init(_ error: DomainError) {
        switch error {
        case .unauthenticated: self = .unauthorized
        case .notFound: self = .notFound
        case .invalidPhone, .invalidArgument, .failedPrecondition, .checkInTooSoon: self = .badRequest
        case .invalidOTP, .otpExpired, .forbidden, .alreadyExists, .tooManyAttempts, .rateLimited, .internal:
            self = .serverError
        }
    }
}

extension SupabaseError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? {
        switch self {
        case .unauthorized: "Sign in first"
        case .notFound: "The server has no such function or record"
        case .badRequest: "The server refused the request"
        case .serverError: "The server could not process the request; try again"
        case .invalidResponse: "The server sent a reply that could not be read"
        }
    }

    public var description: String { errorDescription ?? "" }
}
