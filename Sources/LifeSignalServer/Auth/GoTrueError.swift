import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// A refusal in GoTrue's words. It renders itself in the format the client chose with
/// `X-Supabase-Api-Version` (GoTrue's two error shapes, chosen by that header): `{"code","message"}` from
/// 2024-01-01 on, `{"code": <status>, "error_code", "msg"}` with `x-sb-error-code` before.
struct GoTrueError: HTTPResponseError {
    var status: HTTPResponse.Status
    var code: String
    var message: String
    /// Why a password was refused (`length`, …): GoTrue adds `"weak_password":{"reasons":[…]}`
    /// to the error in both shapes so clients can tell the user what to change.
    var weakPasswordReasons: [String]? = nil
    /// Seconds until a throttled request may be tried again, sent as `Retry-After`.
    var retryAfter: Int? = nil

    /// A throttle's refusal in GoTrue's words: `over_sms_send_rate_limit` for codes,
    /// `over_request_rate_limit` for everything else.
    static func throttled(_ code: String, wait: TimeInterval) -> GoTrueError {
        let seconds = max(1, Int(wait.rounded(.up)))
        let message =
            code == "over_sms_send_rate_limit"
            ? "For security purposes, you can only request this after \(seconds) seconds."
            : "Too many attempts; try again in \(seconds) seconds."
        return GoTrueError(status: .tooManyRequests, code: code, message: message, retryAfter: seconds)
    }

    /// Whether the client asked for the 2024-01-01 API (and its error shape).
    static func isVersioned(_ request: Request) -> Bool {
        (request.headers[.supabaseAPIVersion] ?? "") >= "2024-01-01"
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let weak = weakPasswordReasons.map(WeakPasswordDetail.init(reasons:))
        var headers: HTTPFields = [:]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if Self.isVersioned(request) {
            headers[.supabaseAPIVersion] = "2024-01-01"
            return JSONResponse.make(status, VersionedAuthError(code: code, message: message, weakPassword: weak), headers: headers)
        }
        headers[.sbErrorCode] = code
        return JSONResponse.make(
            status, LegacyAuthError(code: Int(status.code), error_code: code, msg: message, weakPassword: weak),
            headers: headers)
    }
}

/// `/auth/v1`'s own middleware: the API version the client asked for is echoed on every
/// answer, and whatever a handler throws leaves as a ``GoTrueError``.
struct GoTrueMiddleware<Context: AuthenticatedRequestContext>: RouterMiddleware {
    /// The shortest password, which a `weak_password` refusal names.
    let minimumPasswordLength: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var response = try await next(request, context)
            if GoTrueError.isVersioned(request) { response.headers[.supabaseAPIVersion] = "2024-01-01" }
            return response
        } catch {
            throw translating(error)
        }
    }

    /// Any error an auth route throws, in GoTrue's words.
    func translating(_ error: any Error) -> GoTrueError {
        switch error {
        case let error as GoTrueError: error
        // GoTrue's own words for a number that is not E.164 (its phone-number validation message).
        case DomainError.invalidPhone:
            GoTrueError(status: .badRequest, code: "validation_failed", message: "Invalid phone number format (E.164 required)")
        // Sending codes is the throttle left to word here; the password routes word their own
        // (`AuthRoutes.hashingThrottle`).
        case DomainError.rateLimited(let wait): .throttled("over_sms_send_rate_limit", wait: wait)
        case let error as DomainError: GoTrueError(status: error.httpStatus, code: error.code, message: error.message)
        case let refusal as AuthRefusal: words(for: refusal)
        // GoTrue has no code of its own for this; its generic one, with a status that says "retry".
        case let error as DatabaseError where error.isUnavailable: Self.unavailable
        case BearerTokenError.refused(let why as DatabaseError) where why.isUnavailable: Self.unavailable
        case let error as BodyTooLarge:
            GoTrueError(status: .contentTooLarge, code: "request_too_large", message: "Request body exceeds \(error.limit) bytes")
        // As GoTrue's `requireAuthentication`: no token 401, a bad one 403 `bad_jwt`.
        case BearerTokenError.missing:
            GoTrueError(status: .unauthorized, code: "no_authorization", message: "This endpoint requires a valid Bearer token")
        case BearerTokenError.refused(let why):
            GoTrueError(status: .forbidden, code: "bad_jwt", message: "invalid JWT: unable to parse or verify signature, \(why)")
        default: GoTrueError(status: .internalServerError, code: "unexpected_failure", message: "Internal error")
        }
    }

    static var unavailable: GoTrueError {
        GoTrueError(
            status: .serviceUnavailable, code: "unexpected_failure", message: "The database is unavailable; try again shortly",
            retryAfter: DatabaseError.retryAfterSeconds)
    }

    /// The backend's refusals of accounts, passwords and sessions in GoTrue's words.
    func words(for refusal: AuthRefusal) -> GoTrueError {
        switch refusal {
        case .invalidEmail:
            GoTrueError(status: .badRequest, code: "validation_failed", message: "Unable to validate email address: invalid format")
        case .weakPassword:
            GoTrueError(
                status: .unprocessableContent, code: "weak_password",
                message: "Password should be at least \(minimumPasswordLength) characters.", weakPasswordReasons: ["length"])
        case .userAlreadyExists: GoTrueError(status: .unprocessableContent, code: "user_already_exists", message: "User already registered")
        case .invalidCredentials: GoTrueError(status: .badRequest, code: "invalid_credentials", message: "Invalid login credentials")
        case .emailExists:
            GoTrueError(status: .unprocessableContent, code: "email_exists", message: "A user with this email address has already been registered")
        case .phoneExists:
            GoTrueError(status: .unprocessableContent, code: "phone_exists", message: "A user with this phone number has already been registered")
        case .userNotFound: GoTrueError(status: .forbidden, code: "user_not_found", message: "User from sub claim in JWT does not exist")
        case .sessionExpired:
            GoTrueError(status: .badRequest, code: "session_expired", message: "Invalid Refresh Token: Session Expired (Inactivity)")
        case .reauthenticationNeeded:
            GoTrueError(status: .badRequest, code: "reauthentication_needed", message: "Password update requires reauthentication")
        case .reauthenticationNotValid:
            GoTrueError(status: .unprocessableContent, code: "reauthentication_not_valid", message: "Nonce has expired or is invalid")
        case .reauthenticationUnavailable:
            GoTrueError(
                status: .unprocessableContent, code: "reauthentication_not_valid",
                message: "Reauthentication needs a confirmed phone number (this server sends no mail): sign in again with your password instead")
        case .phoneNotConfirmed: GoTrueError(status: .unprocessableContent, code: "phone_not_confirmed", message: "Please verify your phone first.")
        case .emailNotConfirmed: GoTrueError(status: .badRequest, code: "email_not_confirmed", message: "Email not confirmed")
        case .captchaFailed(let reason):
            GoTrueError(status: .badRequest, code: "captcha_failed", message: "captcha protection: request disallowed (\(reason))")
        }
    }
}

/// `weak_password` beside a refusal's code and message.
struct WeakPasswordDetail: Encodable {
    var reasons: [String]
}

/// GoTrue's error body from API version 2024-01-01 on.
struct VersionedAuthError: Encodable {
    var code: String
    var message: String
    var weakPassword: WeakPasswordDetail?

    enum CodingKeys: String, CodingKey {
        case code, message
        case weakPassword = "weak_password"
    }
}

/// GoTrue's error body before API version 2024-01-01.
struct LegacyAuthError: Encodable {
    var code: Int
    var errorCode: String
    var msg: String
    var weakPassword: WeakPasswordDetail?

    init(code: Int, error_code: String, msg: String, weakPassword: WeakPasswordDetail? = nil) {
        self.code = code
        self.errorCode = error_code
        self.msg = msg
        self.weakPassword = weakPassword
    }

    enum CodingKeys: String, CodingKey {
        case code, msg
        case errorCode = "error_code"
        case weakPassword = "weak_password"
    }
}
