import Foundation

/// An error the Identity Toolkit or Secure Token service answered with.
///
/// Both services reply `400 {"error":{"code":400,"message":"CODE[ : detail]"}}`; the code
/// before the colon is what an app branches on (wrong password, email taken, …), the detail
/// after it is a human explanation (`WEAK_PASSWORD : Password should be at least 6
/// characters`). Codes this library does not know are kept in ``Code/other(_:)``.
public struct IdentityToolkitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The machine-readable part of the message.
    public enum Code: Sendable, Hashable {
        case emailExists, emailNotFound, invalidPassword
        /// Email enumeration protection merges wrong email and wrong password into this one.
        case invalidLoginCredentials
        case userDisabled, userNotFound, weakPassword, tooManyAttemptsTryLater
        case tokenExpired, invalidIDToken, invalidRefreshToken, credentialTooOldLoginAgain
        case invalidOOBCode, expiredOOBCode, operationNotAllowed
        case invalidPhoneNumber, invalidCode, sessionExpired, missingCode, invalidSessionInfo
        case invalidEmail, missingPassword, invalidAPIKey
        /// `signInWithPhoneNumber` with an `idToken`: the number belongs to another account.
        case phoneNumberExists
        /// Any other code, spelled as the server sent it (or the HTTP status for bodies that are
        /// not the JSON envelope).
        case other(String)

        private static let table: [(Code, String)] = [
            (.emailExists, "EMAIL_EXISTS"), (.emailNotFound, "EMAIL_NOT_FOUND"), (.invalidPassword, "INVALID_PASSWORD"),
            (.invalidLoginCredentials, "INVALID_LOGIN_CREDENTIALS"), (.userDisabled, "USER_DISABLED"),
            (.userNotFound, "USER_NOT_FOUND"), (.weakPassword, "WEAK_PASSWORD"),
            (.tooManyAttemptsTryLater, "TOO_MANY_ATTEMPTS_TRY_LATER"), (.tokenExpired, "TOKEN_EXPIRED"),
            (.invalidIDToken, "INVALID_ID_TOKEN"), (.invalidRefreshToken, "INVALID_REFRESH_TOKEN"),
            (.credentialTooOldLoginAgain, "CREDENTIAL_TOO_OLD_LOGIN_AGAIN"), (.invalidOOBCode, "INVALID_OOB_CODE"),
            (.expiredOOBCode, "EXPIRED_OOB_CODE"), (.operationNotAllowed, "OPERATION_NOT_ALLOWED"),
            (.invalidPhoneNumber, "INVALID_PHONE_NUMBER"), (.invalidCode, "INVALID_CODE"),
            (.sessionExpired, "SESSION_EXPIRED"), (.missingCode, "MISSING_CODE"),
            (.invalidSessionInfo, "INVALID_SESSION_INFO"), (.invalidEmail, "INVALID_EMAIL"),
            (.missingPassword, "MISSING_PASSWORD"), (.invalidAPIKey, "API_KEY_INVALID"),
            (.phoneNumberExists, "PHONE_NUMBER_EXISTS"),
        ]

        /// Parses a code such as `EMAIL_EXISTS`.
        public init(rawValue: String) {
            self = Self.table.first { $0.1 == rawValue }?.0 ?? .other(rawValue)
        }

        /// The spelling on the wire.
        public var rawValue: String {
            if case .other(let raw) = self { return raw }
            return Self.table.first { $0.0 == self }?.1 ?? "UNKNOWN"
        }
    }

    /// The code before the colon.
    public var code: Code
    /// The explanation after the colon, if any.
    public var detail: String?
    /// The full `message` as the server sent it (or the raw body when it was not JSON).
    public var message: String
    /// The HTTP status.
    public var status: Int
    /// `errors[].reason` (`keyInvalid`, `ipRefererBlocked`, …), which tells a misconfigured
    /// API key apart from a user mistake.
    public var reason: String?

    /// Creates an error.
    public init(code: Code, detail: String? = nil, message: String, status: Int, reason: String? = nil) {
        self.code = code
        self.detail = detail
        self.message = message
        self.status = status
        self.reason = reason
    }

    /// Whether the user's session cannot be recovered by refreshing: they must sign in again.
    public var endsSession: Bool {
        switch code {
        case .tokenExpired, .invalidRefreshToken, .userDisabled, .userNotFound, .invalidIDToken: true
        default: false
        }
    }

    /// Builds the error for a non-2xx response.
    init(response: HTTPResponse) {
        guard let body = GoogleErrorEnvelope.parse(response), let message = body.message, !message.isEmpty else {
            self.init(code: .other("HTTP_\(response.status)"), message: response.errorMessage, status: response.status)
            return
        }
        let (code, detail) = Self.split(message)
        self.init(
            code: Code(rawValue: code), detail: detail, message: message, status: response.status,
            reason: body.errors?.first?.reason)
    }

    /// Splits `CODE : detail` (or `CODE: detail`, or a bare `CODE`).
    static func split(_ message: String) -> (String, String?) {
        guard let colon = message.firstIndex(of: ":") else {
            return (message.trimmingCharacters(in: .whitespaces), nil)
        }
        let code = message[..<colon].trimmingCharacters(in: .whitespaces)
        let detail = message[message.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return (code, detail.isEmpty ? nil : detail)
    }

    public var description: String { "Identity Toolkit error \(status): \(message)" }
}
