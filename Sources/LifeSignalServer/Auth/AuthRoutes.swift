import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// `/auth/v1`: GoTrue's phone and email/password subset over ``AuthService``.
struct AuthRoutes<Context: RemoteAddressRequestContext> {
    let backend: LifeSignalBackend
    let bodyLimit: Int
    /// Where a request came from: codes sent are capped per client address too.
    let addresses: ClientAddressResolver

    func register(on router: Router<Context>) {
        let group = router.group("auth/v1")
        group.post("otp") { request, context in await self.respond(request) { try await self.otp(request, context: context) } }
        group.post("verify") { request, _ in await self.respond(request) { try await self.verify(request) } }
        group.get("user") { request, _ in await self.respond(request) { try await self.user(request) } }
        group.put("user") { request, context in await self.respond(request) { try await self.updateUser(request, context: context) } }
        group.post("signup") { request, _ in await self.respond(request) { try await self.signUp(request) } }
        group.post("token") { request, _ in await self.respond(request) { try await self.token(request) } }
        group.post("logout") { request, _ in await self.respond(request) { try await self.logout(request) } }
        group.get("reauthenticate") { request, context in await self.respond(request) { try await self.reauthenticate(request, context: context) } }
        group.put("admin/users/:id") { request, context in
            await self.respond(request) { try await self.adminUpdateUser(request, id: context.parameters.get("id") ?? "") }
        }
        group.get("health") { _, _ in JSONResponse.make(.ok, ["name": "GoTrue", "description": "LifeSignal auth"]) }
    }

    private func otp(_ request: Request, context: Context) async throws -> Response {
        let body: OTPRequest = try await decode(request)
        guard let phone = body.phone else {
            throw AuthFailure(status: .badRequest, code: "validation_failed", message: "Only phone sign-in is supported: send {\"phone\": \"+1…\"}")
        }
        try await backend.auth.requestCode(phone: phone.hasPrefix("+") ? phone : "+" + phone,
                                           clientAddress: clientAddress(request, context))
        return JSONResponse.make(.ok, [String: String]())
    }

    private func verify(_ request: Request) async throws -> Response {
        let body: VerifyRequest = try await decode(request)
        guard body.type == "sms" || body.type == "phone_change", let phone = body.phone else {
            throw AuthFailure(status: .badRequest, code: "validation_failed",
                              message: "Verify takes {\"type\": \"sms\" or \"phone_change\", \"phone\": …, \"token\": …}")
        }
        let number = phone.hasPrefix("+") ? phone : "+" + phone
        let session = body.type == "sms"
            ? try await backend.auth.verifyCode(phone: number, code: body.token)
            : try await refusals { try await backend.auth.verifyPhoneChange(phone: number, code: body.token) }
        return JSONResponse.make(.ok, GoTrueSession(session))
    }

    /// `grant_type=refresh_token`: rotates the refresh token; a reused one revokes the session.
    private func token(_ request: Request) async throws -> Response {
        let grant = RESTQueryParser.pairs(request.uri.query).first { $0.0 == "grant_type" }?.1
        if grant == "password" { return try await passwordGrant(request) }
        guard grant == "refresh_token" else {
            throw AuthFailure(status: .badRequest, code: "invalid_credentials", message: "unsupported_grant_type")
        }
        let body: RefreshRequest = try await decode(request)
        do {
            return JSONResponse.make(.ok, GoTrueSession(try await backend.auth.refresh(refreshToken: body.refreshToken)))
        } catch AuthRefusal.sessionExpired {
            throw AuthFailure(status: .badRequest, code: "session_expired", message: "Invalid Refresh Token: Session Expired (Inactivity)")
        } catch DomainError.notFound {
            throw AuthFailure(status: .badRequest, code: "refresh_token_not_found", message: "Invalid Refresh Token: Refresh Token Not Found")
        } catch DomainError.forbidden {
            throw AuthFailure(status: .badRequest, code: "refresh_token_already_used", message: "Invalid Refresh Token: Already Used")
        }
    }

    /// GoTrue's `logout`: `scope=global` (the default) ends every session of the person,
    /// `local` the token's own, `others` all but it; 204 with no body.
    private func logout(_ request: Request) async throws -> Response {
        let caller = try await signedIn(request)
        let scopeText = RESTQueryParser.pairs(request.uri.query).first { $0.0 == "scope" }?.1 ?? ""
        let scope: SignOutScope? = scopeText.isEmpty ? .global : SignOutScope(rawValue: scopeText)
        guard let scope else {
            throw AuthFailure(status: .badRequest, code: "validation_failed", message: "Unsupported logout scope \"\(scopeText)\"")
        }
        try await backend.auth.signOut(user: caller.user, session: caller.session, scope: scope)
        return Response(status: .noContent)
    }

    private func user(_ request: Request) async throws -> Response {
        guard let user = try await backend.auth.user(id: try await signedIn(request).user) else {
            throw AuthFailure(status: .forbidden, code: "user_not_found", message: "User from sub claim in JWT does not exist")
        }
        return JSONResponse.make(.ok, GoTrueUser(user))
    }

    /// GoTrue's `reauthenticate`: a code for `PUT /user`'s `nonce`, sent to the confirmed phone.
    private func reauthenticate(_ request: Request, context: Context) async throws -> Response {
        let caller = try await signedIn(request)
        try await refusals {
            do {
                try await backend.auth.requestReauthentication(user: caller.user, clientAddress: clientAddress(request, context))
            } catch DomainError.rateLimited(let wait) {
                throw AuthFailure.throttled("over_sms_send_rate_limit", wait: wait)
            }
        }
        return JSONResponse.make(.ok, [String: String]())
    }

    /// The person and session a request's bearer token names, refused as GoTrue's
    /// `requireAuthentication` refuses it: no token 401, a bad one 403 `bad_jwt`, a token of a
    /// session that has ended 403 `session_not_found`.
    func signedIn(_ request: Request) async throws -> (user: UserID, session: UUID?) {
        try await active(try bearer(request))
    }

    /// The token's checks that need no database: run before a request's body is read, so a
    /// request without a valid token is refused as such whatever its body.
    func bearer(_ request: Request) throws -> (user: UserID, claims: TokenClaims) {
        guard let token = request.bearerToken else {
            throw AuthFailure(status: .unauthorized, code: "no_authorization", message: "This endpoint requires a valid Bearer token")
        }
        let claims: TokenClaims
        let caller: Caller
        do {
            claims = try backend.auth.verify(token)
            caller = try backend.auth.caller(claims: claims)
        } catch {
            throw AuthFailure(status: .forbidden, code: "bad_jwt", message: "invalid JWT: unable to parse or verify signature, \(error)")
        }
        guard case .user(let id) = caller else {
            throw AuthFailure(status: .forbidden, code: "bad_jwt", message: "invalid claim: missing sub claim")
        }
        return (id, claims)
    }

    /// Whether the token's session is still active. A request with a body reads it first
    /// (`PUT /user`): a lookup that waits for the database must never leave a client waiting
    /// to send its body, which under a burst held requests past the body deadline.
    func active(_ bearer: (user: UserID, claims: TokenClaims)) async throws -> (user: UserID, session: UUID?) {
        guard try await backend.auth.isSessionActive(bearer.claims) else {
            // GoTrue looks the person up before the session: a deleted account (whose sessions
            // went with it) is `user_not_found`.
            guard try await backend.auth.user(id: bearer.user) != nil else {
                throw AuthFailure(status: .forbidden, code: "user_not_found", message: "User from sub claim in JWT does not exist")
            }
            throw AuthFailure(status: .forbidden, code: "session_not_found", message: "Session from session_id claim in JWT does not exist")
        }
        return (bearer.user, AuthService.sessionID(of: bearer.claims))
    }

    func clientAddress(_ request: Request, _ context: Context) -> String? {
        addresses.clientAddress(peer: context.remoteAddress, headers: request.headers)
    }

    func decode<T: Decodable>(_ request: Request) async throws -> T {
        let data = try await request.collectBody(limit: bodyLimit)
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw AuthFailure(status: .badRequest, code: "bad_json", message: "Could not parse request body as JSON: \(BackendFunctions.describe(error))")
        }
    }

    /// Runs a handler and words its failure in GoTrue's format, which the client chooses
    /// with `X-Supabase-Api-Version` (§C.4 of the wire reference).
    private func respond(_ request: Request, _ handler: () async throws -> Response) async -> Response {
        let versioned = (request.headers[.supabaseAPIVersion] ?? "") >= "2024-01-01"
        let failure: AuthFailure
        do {
            var response = try await handler()
            if versioned { response.headers[.supabaseAPIVersion] = "2024-01-01" }
            return response
        } catch let error as AuthFailure {
            failure = error
        } catch DomainError.invalidPhone {
            // GoTrue's own words for a number that is not E.164 (§C.1).
            failure = AuthFailure(status: .badRequest, code: "validation_failed", message: "Invalid phone number format (E.164 required)")
        } catch DomainError.rateLimited(let wait) {
            // Sending codes is the throttle left to word here; the password routes word their
            // own (`AuthRoutes+Password.swift`).
            failure = .throttled("over_sms_send_rate_limit", wait: wait)
        } catch let error as DomainError {
            failure = AuthFailure(status: error.httpStatus, code: error.code, message: error.message)
        } catch let error as DatabaseError where error.isUnavailable {
            // GoTrue has no code of its own for this; its generic one, with a status that says "retry".
            failure = AuthFailure(status: .serviceUnavailable, code: "unexpected_failure",
                                  message: "The database is unavailable; try again shortly", retryAfter: DatabaseError.retryAfterSeconds)
        } catch is BodyTooLarge {
            failure = AuthFailure(status: .contentTooLarge, code: "request_too_large", message: "Request body exceeds \(bodyLimit) bytes")
        } catch {
            failure = AuthFailure(status: .internalServerError, code: "unexpected_failure", message: "Internal error")
        }
        let weak = failure.weakPasswordReasons.map(WeakPasswordDetail.init(reasons:))
        var headers: HTTPFields = [:]
        if let wait = failure.retryAfter { headers[.retryAfter] = String(wait) }
        if versioned {
            headers[.supabaseAPIVersion] = "2024-01-01"
            return JSONResponse.make(failure.status, VersionedAuthError(code: failure.code, message: failure.message, weakPassword: weak),
                                     headers: headers)
        }
        headers[.sbErrorCode] = failure.code
        return JSONResponse.make(failure.status, LegacyAuthError(code: Int(failure.status.code), error_code: failure.code, msg: failure.message, weakPassword: weak),
                                 headers: headers)
    }
}

struct AuthFailure: Error {
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
    static func throttled(_ code: String, wait: TimeInterval) -> AuthFailure {
        let seconds = max(1, Int(wait.rounded(.up)))
        let message = code == "over_sms_send_rate_limit"
            ? "For security purposes, you can only request this after \(seconds) seconds."
            : "Too many attempts; try again in \(seconds) seconds."
        return AuthFailure(status: .tooManyRequests, code: code, message: message, retryAfter: seconds)
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
