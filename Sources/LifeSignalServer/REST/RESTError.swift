import Foundation
import Hummingbird
import LifeSignalBackend

/// A PostgREST error: `{"code","details","hint","message"}` with its HTTP status, which
/// renders itself (a 401 with `WWW-Authenticate`, a 503 with `Retry-After`).
struct RESTError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var code: RESTErrorCode
    var message: String
    var details: String?
    var hint: String?
    /// Headers the error adds beside its own (`Content-Range` on a 416).
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response { response }

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
        var headers = self.headers
        headers[.proxyStatus] = "PostgREST; error=\(code.rawValue)"
        if status == .unauthorized {
            // RFC 6750 §3, as PostgREST words it: a bad token says why; a missing grant just asks for one.
            headers[.wwwAuthenticate] =
                code.isTokenRefusal
                ? "Bearer error=\"invalid_token\", error_description=\(JSONRenderer.quote(message))"
                : "Bearer"
        }
        // 503 is the database out of reach (PGRST001): worth retrying soon.
        if status == .serviceUnavailable { headers[.retryAfter] = String(DatabaseError.retryAfterSeconds) }
        return JSONResponse.make(status, Body(code: code.rawValue, details: details, hint: hint, message: message), headers: headers)
    }

    /// Any error a `/rest/v1` route throws, in PostgREST's words; `role` is the caller's, which
    /// decides whether a missing grant is 401 or 403.
    static func translating(_ error: any Error, role: DatabaseRole) -> RESTError {
        switch error {
        case let error as RESTError: error
        case let error as DatabaseError: .database(error, role: role)
        case BearerTokenError.refused(let why): .refusedToken(why, role: role)
        case let error as BodyTooLarge: RESTError(status: .contentTooLarge, code: .bodyTooLarge, message: "Request body exceeds \(error.limit) bytes")
        default: RESTError(status: .internalServerError, code: .internalError, message: "Internal error")
        }
    }

    /// A bearer token that was refused: a 401 that says why, never a silent downgrade to
    /// anonymous.
    static func refusedToken(_ why: any Error, role: DatabaseRole) -> RESTError {
        switch why {
        case TokenError.expired: RESTError(status: .unauthorized, code: .expiredToken, message: "JWT expired")
        case TokenError.malformed(let why): RESTError(status: .unauthorized, code: .invalidToken, message: why)
        case TokenError.badSignature:
            RESTError(
                status: .unauthorized, code: .invalidToken, message: "No suitable key or wrong key type",
                details: "None of the keys was able to decode the JWT")
        case TokenError.unknownRole(let role): RESTError(status: .unauthorized, code: .invalidParameterValue, message: "role \"\(role)\" does not exist")
        case let error as DatabaseError: .database(error, role: role)
        default: RESTError(status: .unauthorized, code: .invalidToken, message: "\(why)")
        }
    }

    static func parse(_ part: String, _ value: String, _ detail: String) -> RESTError {
        RESTError(status: .badRequest, code: .unparsableQuery, message: "\"failed to parse \(part) (\(value))\"", details: detail)
    }

    /// A request over one of the ``QueryLimits``: refused like a parse error, before any SQL.
    static func limit(_ part: String, _ detail: String, hint: String? = nil) -> RESTError {
        RESTError(status: .badRequest, code: .unparsableQuery, message: "\"failed to parse \(part)\"", details: detail, hint: hint)
    }

    /// `Accept: application/vnd.pgrst.object` and not exactly one row.
    static func notSingular(_ rows: Int) -> RESTError {
        RESTError(
            status: .notAcceptable, code: .notSingular, message: "Cannot coerce the result to a single JSON object",
            details: "The result contains \(rows) rows")
    }

    static func unknownTable(_ name: String) -> RESTError {
        RESTError(status: .notFound, code: .unknownTable, message: "Could not find the table 'public.\(name)' in the schema cache")
    }

    static func unknownColumn(_ table: String, _ column: String) -> RESTError {
        RESTError(status: .badRequest, code: .undefinedColumn, message: "column \(table).\(column) does not exist")
    }

    /// PostgREST's map from SQLSTATE to HTTP status (`23505` → 409, `42501` → 401/403, …).
    static func database(_ error: DatabaseError, role: DatabaseRole) -> RESTError {
        switch error {
        case .statement(let state, let message, let detail, let hint):
            return RESTError(
                status: status(forSQLState: state, message: message, role: role), code: RESTErrorCode(sqlState: state),
                message: message, details: detail, hint: hint)
        case .unavailable(let why):
            return RESTError(status: .serviceUnavailable, code: .databaseUnreachable, message: "Database client error. Retrying the connection.", details: why)
        case .decoding(let why), .configuration(let why):
            return RESTError(status: .internalServerError, code: .internalError, message: why)
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
