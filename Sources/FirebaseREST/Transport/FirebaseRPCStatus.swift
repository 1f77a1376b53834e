import Foundation

/// Google's canonical error codes (`google.rpc.Code`), as Firestore, callable functions and
/// FCM spell them in the `status` field of an error body.
///
/// Unknown spellings are kept in ``other(_:)`` rather than dropped, so a new code the server
/// starts sending is still visible to the caller.
public enum FirebaseRPCStatus: Sendable, Hashable, CustomStringConvertible {
    case cancelled, unknown, invalidArgument, deadlineExceeded, notFound, alreadyExists
    case permissionDenied, resourceExhausted, failedPrecondition, aborted, outOfRange
    case unimplemented, `internal`, unavailable, dataLoss, unauthenticated
    /// A status this library does not know, with its spelling.
    case other(String)

    private static let table: [(FirebaseRPCStatus, String, Int)] = [
        (.cancelled, "CANCELLED", 499), (.unknown, "UNKNOWN", 500), (.invalidArgument, "INVALID_ARGUMENT", 400),
        (.deadlineExceeded, "DEADLINE_EXCEEDED", 504), (.notFound, "NOT_FOUND", 404),
        (.alreadyExists, "ALREADY_EXISTS", 409), (.permissionDenied, "PERMISSION_DENIED", 403),
        (.resourceExhausted, "RESOURCE_EXHAUSTED", 429), (.failedPrecondition, "FAILED_PRECONDITION", 400),
        (.aborted, "ABORTED", 409), (.outOfRange, "OUT_OF_RANGE", 400), (.unimplemented, "UNIMPLEMENTED", 501),
        (.internal, "INTERNAL", 500), (.unavailable, "UNAVAILABLE", 503), (.dataLoss, "DATA_LOSS", 500),
        (.unauthenticated, "UNAUTHENTICATED", 401),
    ]

    /// Parses a status spelling such as `NOT_FOUND`.
    public init(rawValue: String) {
        self = Self.table.first { $0.1 == rawValue }?.0 ?? .other(rawValue)
    }

    /// The best guess for a response that carried no `status` (a proxy's HTML page, an empty
    /// body), following Google's HTTP mapping.
    public init(httpStatus: Int) {
        switch httpStatus {
        case 400: self = .invalidArgument
        case 401: self = .unauthenticated
        case 403: self = .permissionDenied
        case 404: self = .notFound
        case 409: self = .aborted
        case 412: self = .failedPrecondition
        case 429: self = .resourceExhausted
        case 499: self = .cancelled
        case 501: self = .unimplemented
        case 503: self = .unavailable
        case 504: self = .deadlineExceeded
        default: self = httpStatus >= 500 ? .internal : .unknown
        }
    }

    /// The spelling on the wire.
    public var rawValue: String {
        if case .other(let raw) = self { return raw }
        return Self.table.first { $0.0 == self }?.1 ?? "UNKNOWN"
    }

    public var description: String { rawValue }
}

/// Google's JSON error envelope: `{"error":{"code":404,"message":"…","status":"NOT_FOUND",
/// "details":[…],"errors":[{"reason":…}]}}`. Firestore sometimes wraps it in an array.
struct GoogleErrorEnvelope: Decodable {
    struct Body: Decodable {
        var code: Int?
        var message: String?
        var status: String?
        var details: [AnyJSON]?
        var errors: [Reason]?
    }
    struct Reason: Decodable {
        var reason: String?
        var message: String?
    }
    var error: Body

    /// Parses the envelope from an error response, or `nil` when it has another shape.
    static func parse(_ response: HTTPResponse) -> Body? {
        let decoder = JSONDecoder()
        if let envelope = try? decoder.decode(GoogleErrorEnvelope.self, from: response.body) {
            return envelope.error
        }
        if let list = try? decoder.decode([GoogleErrorEnvelope].self, from: response.body), let first = list.first {
            return first.error
        }
        return nil
    }
}

extension HTTPResponse {
    /// The body as text for error messages: UTF-8 when it decodes, a byte count otherwise.
    var bodyText: String {
        String(data: body, encoding: .utf8) ?? "<\(body.count) bytes>"
    }

    /// The message for an error response: the envelope's `message`, else the raw body text,
    /// else a generic phrase — never empty, so logs always say something.
    var errorMessage: String {
        if let message = GoogleErrorEnvelope.parse(self)?.message, !message.isEmpty { return message }
        let text = bodyText.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "HTTP \(status)" : text
    }
}
