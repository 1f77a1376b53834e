import Foundation

/// Seed `002_…`'s `AuthError`: why signing in, or acting as the signed-in person, failed.
///
/// Named `AuthenticationError` rather than `AuthError` because SupabaseREST already has a
/// public `AuthError` (the GoTrue wire error), and a second one here would make the name
/// ambiguous in every file that imports both modules (the Supabase adapters do).
///
/// The seed names two cases, ``notAuthenticated`` and ``unknown(_:)`` (with a message). The
/// seed's sign-in is by e-mail and password; LifeSignal's is by phone and a one-time SMS code,
/// so the refusals that flow has (``DomainError``'s `invalid_phone`, `invalid_otp`,
/// `otp_expired`, `too_many_attempts`) get cases of their own rather than ending in
/// ``unknown(_:)``.
public enum AuthenticationError: DomainErrorRefining, Hashable {
    /// No one is signed in, or the session has ended (`unauthenticated`, or `not_found` on the
    /// "Refresh token").
    case notAuthenticated
    /// The text is not a phone number (`invalid_phone`); carries the text as given.
    case invalidPhone(String)
    /// The SMS code is wrong (`invalid_otp`).
    case invalidCode
    /// The SMS code has expired or was never sent (`otp_expired`).
    case codeExpired
    /// Too many wrong codes; a new one must be requested (`too_many_attempts`).
    case tooManyAttempts
    /// Anything else, as a sentence a person can read (the seed's `unknown(String)`).
    case unknown(String)

    /// Reads a rule's failure by its code:
    ///
    /// - `unauthenticated` → ``notAuthenticated``; so is `not_found` on "Refresh token" (the
    ///   backend's answer to a refresh token it does not know: the session is gone).
    /// - `invalid_phone` → ``invalidPhone(_:)``, `invalid_otp` → ``invalidCode``,
    ///   `otp_expired` → ``codeExpired``, `too_many_attempts` → ``tooManyAttempts``.
    /// - Anything else → ``unknown(_:)`` with the error's message.
    public init(_ error: DomainError) {
        switch error {
        case .unauthenticated: self = .notAuthenticated
        case .notFound("Refresh token"): self = .notAuthenticated
        case .invalidPhone(let text): self = .invalidPhone(text)
        case .invalidOTP: self = .invalidCode
        case .otpExpired: self = .codeExpired
        case .tooManyAttempts: self = .tooManyAttempts
        default: self = .unknown(error.message)
        }
    }
}

extension AuthenticationError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? {
        switch self {
        case .notAuthenticated: "Sign in first"
        case .invalidPhone(let text): "\"\(text)\" is not a phone number; check the number and region"
        case .invalidCode: "The code is wrong; check the SMS and try again"
        case .codeExpired: "The code has expired; request a new one"
        case .tooManyAttempts: "Too many wrong codes; request a new one"
        case .unknown(let message): message
        }
    }

    public var description: String { errorDescription ?? "" }
}
