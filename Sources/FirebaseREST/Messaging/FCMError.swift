import Foundation

/// An error FCM answered a send with.
///
/// FCM puts its own code in `error.details[].errorCode` (type `…fcm.v1.FcmError`), which is
/// more precise than the canonical `status`: ``Code/unregistered`` means the token is dead
/// and should be deleted, whereas ``Code/invalidArgument`` may be a bad token *or* a bad
/// payload.
public struct FCMError: Error, Equatable, Sendable, CustomStringConvertible {
    /// FCM's error codes.
    public enum Code: Sendable, Hashable {
        /// The token is no longer valid (app uninstalled, token rotated): stop using it.
        case unregistered
        case invalidArgument
        /// The token belongs to another Firebase project.
        case senderIDMismatch
        /// Sending rate exceeded; retry later with backoff (429).
        case quotaExceeded
        case unavailable
        case `internal`
        /// APNs (or Web Push) credentials are missing or invalid.
        case thirdPartyAuthError
        /// Any other code, or none, with the best information available.
        case other(String)

        init(rawValue: String) {
            switch rawValue {
            case "UNREGISTERED": self = .unregistered
            case "INVALID_ARGUMENT": self = .invalidArgument
            case "SENDER_ID_MISMATCH": self = .senderIDMismatch
            case "QUOTA_EXCEEDED": self = .quotaExceeded
            case "UNAVAILABLE": self = .unavailable
            case "INTERNAL": self = .internal
            case "THIRD_PARTY_AUTH_ERROR": self = .thirdPartyAuthError
            default: self = .other(rawValue)
            }
        }
    }

    /// FCM's code (from `details[].errorCode`, else derived from the status).
    public var code: Code
    /// The canonical status.
    public var status: FirebaseRPCStatus
    public var message: String
    public var httpStatus: Int

    /// Creates an error.
    public init(code: Code, status: FirebaseRPCStatus, message: String, httpStatus: Int) {
        self.code = code
        self.status = status
        self.message = message
        self.httpStatus = httpStatus
    }

    init(response: HTTPResponse) {
        let body = GoogleErrorEnvelope.parse(response)
        let status = body?.status.map(FirebaseRPCStatus.init(rawValue:)) ?? FirebaseRPCStatus(httpStatus: response.status)
        let detailCode = body?.details?.lazy.compactMap { $0["errorCode"]?.stringValue }.first
        let code: Code
        if let detailCode {
            code = Code(rawValue: detailCode)
        } else {
            switch (status, response.status) {
            case (.notFound, _), (_, 404): code = .unregistered
            case (.resourceExhausted, _), (_, 429): code = .quotaExceeded
            case (.invalidArgument, _): code = .invalidArgument
            case (.unavailable, _): code = .unavailable
            case (.internal, _): code = .internal
            default: code = .other(status.rawValue)
            }
        }
        self.init(code: code, status: status, message: response.errorMessage, httpStatus: response.status)
    }

    public var description: String { "FCM \(code) (\(httpStatus)): \(message)" }
}
