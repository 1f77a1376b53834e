import Foundation

/// Every failure a LifeSignal rule can report, with a stable machine-readable ``code``.
///
/// The codes are what travels on the wire (`{"code": "…", "message": "…"}`) and what adapters
/// map back into this enum, so a client on any backend sees the same error for the same
/// mistake. Messages are for people and may change; codes may not.
public enum DomainError: Error, Hashable, Sendable {
    case invalidPhone(String)
    case invalidOTP
    case otpExpired
    case tooManyAttempts
    case checkInTooSoon(retryAfter: TimeInterval)
    case unauthenticated
    case forbidden(String)
    case notFound(String)
    case invalidArgument(String)
    case alreadyExists(String)
    case failedPrecondition(String)
    case rateLimited(retryAfter: TimeInterval)
    case `internal`(String)

    /// The stable code, in snake case.
    public var code: String {
        switch self {
        case .invalidPhone: "invalid_phone"
        case .invalidOTP: "invalid_otp"
        case .otpExpired: "otp_expired"
        case .tooManyAttempts: "too_many_attempts"
        case .checkInTooSoon: "check_in_too_soon"
        case .unauthenticated: "unauthenticated"
        case .forbidden: "forbidden"
        case .notFound: "not_found"
        case .invalidArgument: "invalid_argument"
        case .alreadyExists: "already_exists"
        case .failedPrecondition: "failed_precondition"
        case .rateLimited: "rate_limited"
        case .internal: "internal"
        }
    }

    /// A sentence a person can act on.
    public var message: String {
        switch self {
        case .invalidPhone(let text):
            "\"\(text)\" is not a phone number in E.164 form (+ and 7 to 15 digits)"
        case .invalidOTP: "The code is wrong; check the SMS and try again"
        case .otpExpired: "The code has expired or was never sent; request a new one"
        case .tooManyAttempts: "Too many wrong codes; request a new one"
        case .checkInTooSoon(let wait):
            "You checked in less than 5 minutes ago; try again in \(Int(wait.rounded(.up))) s"
        case .unauthenticated: "Sign in first"
        case .forbidden(let why): why
        case .notFound(let what): "\(what) was not found"
        case .invalidArgument(let why): why
        case .alreadyExists(let what): "\(what) already exists"
        case .failedPrecondition(let why): why
        case .rateLimited(let wait): "Too many requests; retry in \(Int(wait.rounded(.up))) s"
        case .internal(let why): "Internal error: \(why)"
        }
    }

    /// Seconds to wait before retrying, for the errors that have one.
    public var retryAfter: TimeInterval? {
        switch self {
        case .checkInTooSoon(let wait), .rateLimited(let wait): wait
        default: nil
        }
    }

    /// Rebuilds an error from its wire form; unknown codes become ``internal(_:)`` so a newer
    /// server never crashes an older client.
    public init(code: String, message: String, retryAfter: TimeInterval? = nil) {
        switch code {
        case "invalid_phone":
            let prefix = "\""
            let suffix = "\" is not a phone number in E.164 form (+ and 7 to 15 digits)"
            self = .invalidPhone(
                message.hasPrefix(prefix) && message.hasSuffix(suffix) && message.count >= prefix.count + suffix.count
                    ? String(message.dropFirst(prefix.count).dropLast(suffix.count)) : message)
        case "invalid_otp": self = .invalidOTP
        case "otp_expired": self = .otpExpired
        case "too_many_attempts": self = .tooManyAttempts
        case "check_in_too_soon": self = .checkInTooSoon(retryAfter: retryAfter ?? 0)
        case "unauthenticated": self = .unauthenticated
        case "forbidden": self = .forbidden(message)
        // The wire carries ``message``, which wraps some payloads in a sentence; unwrap it so
        // the error rebuilt on the client equals the one the server raised.
        case "not_found": self = .notFound(message.hasSuffix(" was not found") ? String(message.dropLast(14)) : message)
        case "invalid_argument": self = .invalidArgument(message)
        case "already_exists": self = .alreadyExists(message.hasSuffix(" already exists") ? String(message.dropLast(15)) : message)
        case "failed_precondition": self = .failedPrecondition(message)
        case "rate_limited": self = .rateLimited(retryAfter: retryAfter ?? 0)
        default: self = .internal(message.hasPrefix("Internal error: ") ? String(message.dropFirst(16)) : message)
        }
    }
}

extension DomainError: LocalizedError {
    public var errorDescription: String? { message }
}
