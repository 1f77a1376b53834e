import Foundation
import Hummingbird
import LifeSignalBackend

/// A PostgREST error: `{"code","details","hint","message"}` with its HTTP status.
struct RESTError: Error, Sendable {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    var details: String?
    var hint: String?

    var response: Response {
        struct Body: Encodable {
            var code: String
            var details: String?
            var hint: String?
            var message: String
            func encode(to encoder: any Encoder) throws {
                // PostgREST always sends all four keys, null when empty.
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(code, forKey: .code)
                try container.encode(details, forKey: .details)
                try container.encode(hint, forKey: .hint)
                try container.encode(message, forKey: .message)
            }
            enum CodingKeys: String, CodingKey { case code, details, hint, message }
        }
        var headers: HTTPFields = [.proxyStatus: "PostgREST; error=\(code)"]
        if status == .unauthorized {
            // RFC 6750 §3, as PostgREST words it: a bad token says why; a missing grant just asks for one.
            headers[.wwwAuthenticate] = code.hasPrefix("PGRST30")
                ? "Bearer error=\"invalid_token\", error_description=\(JSONRenderer.quote(message))"
                : "Bearer"
        }
        // 503 is the database out of reach (PGRST001): worth retrying soon.
        if status == .serviceUnavailable { headers[.retryAfter] = String(DatabaseError.retryAfterSeconds) }
        return JSONResponse.make(status, Body(code: code, details: details, hint: hint, message: message), headers: headers)
    }

    static func parse(_ part: String, _ value: String, _ detail: String) -> RESTError {
        RESTError(status: .badRequest, code: "PGRST100", message: "\"failed to parse \(part) (\(value))\"", details: detail)
    }

    /// A request over one of the ``QueryLimits``: refused like a parse error, before any SQL.
    static func limit(_ part: String, _ detail: String, hint: String? = nil) -> RESTError {
        RESTError(status: .badRequest, code: "PGRST100", message: "\"failed to parse \(part)\"", details: detail, hint: hint)
    }

    static func unknownTable(_ name: String) -> RESTError {
        RESTError(status: .notFound, code: "PGRST205", message: "Could not find the table 'public.\(name)' in the schema cache")
    }

    static func unknownColumn(_ table: String, _ column: String) -> RESTError {
        RESTError(status: .badRequest, code: "42703", message: "column \(table).\(column) does not exist")
    }

    /// The SQLSTATE → HTTP map of the wire reference (§A.12).
    static func database(_ error: DatabaseError, role: DatabaseRole) -> RESTError {
        switch error {
        case let .statement(state, message, detail, hint):
            return RESTError(status: status(forSQLState: state, message: message, role: role), code: state,
                             message: message, details: detail, hint: hint)
        case .unavailable(let why):
            return RESTError(status: .serviceUnavailable, code: "PGRST001", message: "Database client error. Retrying the connection.", details: why)
        case .decoding(let why), .configuration(let why):
            return RESTError(status: .internalServerError, code: "PGRST000", message: why)
        }
    }

    static func status(forSQLState state: String, message: String, role: DatabaseRole) -> HTTPResponse.Status {
        switch state {
        case "23503", "23505": return .conflict
        case "25006": return .methodNotAllowed
        case "21000": return message.hasSuffix("requires a WHERE clause") ? .badRequest : .internalServerError
        case "42883", "42P01": return .notFound
        case "42P17": return .internalServerError
        case "42501": return role == .anon ? .unauthorized : .forbidden
        case "P0001": return .badRequest
        default: break
        }
        let prefix = state.prefix(2)
        switch prefix {
        case "08", "53": return state == "53400" ? .internalServerError : .serviceUnavailable
        case "0L", "0P", "28": return .forbidden
        case "09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "XX", "P0":
            return state == "57P01" ? .serviceUnavailable : .internalServerError
        default: return .badRequest
        }
    }
}
