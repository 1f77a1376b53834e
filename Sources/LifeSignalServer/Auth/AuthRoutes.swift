import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// `/auth/v1`: GoTrue's phone and email/password subset over ``AuthService``.
struct AuthRoutes<Context: AuthenticatedRequestContext> {
    let backend: LifeSignalBackend
    let bodyLimit: Int
    /// Where a request came from: codes sent are capped per client address too.
    let addresses: ClientAddressResolver

    func register(on router: some RouterMethods<Context>) {
        let group = router.group("auth/v1")
        group.get("health") { _, _ in JSONResponse.make(.ok, ["name": "GoTrue", "description": "LifeSignal auth"]) }
        group.add(middleware: GoTrueMiddleware(minimumPasswordLength: backend.auth.policy.minimumPasswordLength))
        group.post("otp") { request, context in try await self.otp(request, context: context) }
        group.post("verify") { request, _ in try await self.verify(request) }
        group.get("user") { _, context in try await self.user(context) }
        group.put("user") { request, context in try await self.updateUser(request, context: context) }
        group.post("signup") { request, context in try await self.signUp(request, context: context) }
        group.post("resend") { request, context in try await self.resend(request, context: context) }
        group.post("token") { request, _ in try await self.token(request) }
        group.post("logout") { request, context in try await self.logout(request, context: context) }
        group.get("reauthenticate") { request, context in try await self.reauthenticate(request, context: context) }
        group.put("admin/users/:id") { request, context in
            try await self.adminUpdateUser(request, context: context, id: context.parameters.get("id") ?? "")
        }
    }

    private func otp(_ request: Request, context: Context) async throws -> Response {
        let body: OTPRequest = try await decode(request)
        guard let phone = body.phone else {
            throw GoTrueError(status: .badRequest, code: "validation_failed", message: "Only phone sign-in is supported: send {\"phone\": \"+1…\"}")
        }
        guard let channel = CodeChannel(rawValue: body.channel ?? "sms") else {
            throw GoTrueError(status: .badRequest, code: "validation_failed", message: "channel is sms or call")
        }
        try await backend.auth.requestCode(
            phone: phone.hasPrefix("+") ? phone : "+" + phone,
            clientAddress: clientAddress(request, context), captchaToken: body.security?.captchaToken, by: channel)
        return JSONResponse.make(.ok, [String: String]())
    }

    private func verify(_ request: Request) async throws -> Response {
        let body: VerifyRequest = try await decode(request)
        if let email = body.email, body.phone == nil {
            switch body.type {
            case "signup", "email":
                return JSONResponse.make(.ok, GoTrueSession(try await backend.auth.verifySignUp(email: email, code: body.token)))
            case "email_change":
                return JSONResponse.make(.ok, GoTrueSession(try await backend.auth.verifyEmailChange(email: email, code: body.token)))
            default: break
            }
        }
        guard body.type == "sms" || body.type == "phone_change", let phone = body.phone else {
            throw GoTrueError(
                status: .badRequest, code: "validation_failed",
                message: "Verify takes {\"type\": \"sms\" or \"phone_change\", \"phone\": …, \"token\": …} "
                    + "or {\"type\": \"signup\" or \"email_change\", \"email\": …, \"token\": …}")
        }
        let number = phone.hasPrefix("+") ? phone : "+" + phone
        let session =
            body.type == "sms"
            ? try await backend.auth.verifyCode(phone: number, code: body.token)
            : try await backend.auth.verifyPhoneChange(phone: number, code: body.token)
        return JSONResponse.make(.ok, GoTrueSession(session))
    }

    /// `grant_type=refresh_token`: rotates the refresh token; a reused one revokes the session.
    private func token(_ request: Request) async throws -> Response {
        let grant = RESTQueryParser.pairs(request.uri.query).first { $0.0 == "grant_type" }?.1
        if grant == "password" { return try await passwordGrant(request) }
        guard grant == "refresh_token" else {
            throw GoTrueError(status: .badRequest, code: "invalid_credentials", message: "unsupported_grant_type")
        }
        let body: RefreshRequest = try await decode(request)
        do {
            return JSONResponse.make(.ok, GoTrueSession(try await backend.auth.sessions.refresh(refreshToken: body.refreshToken)))
        } catch DomainError.notFound {
            throw GoTrueError(status: .badRequest, code: "refresh_token_not_found", message: "Invalid Refresh Token: Refresh Token Not Found")
        } catch DomainError.forbidden {
            throw GoTrueError(status: .badRequest, code: "refresh_token_already_used", message: "Invalid Refresh Token: Already Used")
        }
    }

    /// GoTrue's `logout`: `scope=global` (the default) ends every session of the person,
    /// `local` the token's own, `others` all but it; 204 with no body.
    private func logout(_ request: Request, context: Context) async throws -> Response {
        let caller = try await signedIn(context)
        let scopeText = RESTQueryParser.pairs(request.uri.query).first { $0.0 == "scope" }?.1 ?? ""
        let scope: SignOutScope? = scopeText.isEmpty ? .global : SignOutScope(rawValue: scopeText)
        guard let scope else {
            throw GoTrueError(status: .badRequest, code: "validation_failed", message: "Unsupported logout scope \"\(scopeText)\"")
        }
        try await backend.auth.sessions.signOut(user: caller.user, session: caller.session, scope: scope)
        return Response(status: .noContent)
    }

    private func user(_ context: Context) async throws -> Response {
        guard let user = try await backend.auth.user(id: try await signedIn(context).user) else {
            throw GoTrueError(status: .forbidden, code: "user_not_found", message: "User from sub claim in JWT does not exist")
        }
        return JSONResponse.make(.ok, GoTrueUser(user))
    }

    /// GoTrue's `reauthenticate`: a code for `PUT /user`'s `nonce`, sent to the confirmed phone.
    private func reauthenticate(_ request: Request, context: Context) async throws -> Response {
        let caller = try await signedIn(context)
        try await backend.auth.reauthentication.request(user: caller.user, clientAddress: clientAddress(request, context))
        return JSONResponse.make(.ok, [String: String]())
    }

    /// The person and session a request's bearer token names, refused as GoTrue's
    /// `requireAuthentication` refuses it: no token 401, a bad one 403 `bad_jwt`, a token of a
    /// session that has ended 403 `session_not_found`.
    func signedIn(_ context: Context) async throws -> (user: UserID, session: UUID?) {
        try await active(try bearer(context))
    }

    /// The token's checks that need no database: run before a request's body is read, so a
    /// request without a valid token is refused as such whatever its body.
    func bearer(_ context: Context) throws -> (user: UserID, claims: TokenClaims) {
        let (caller, claims) = try context.authentication.required()
        guard case .user(let id) = caller else {
            throw GoTrueError(status: .forbidden, code: "bad_jwt", message: "invalid claim: missing sub claim")
        }
        return (id, claims)
    }

    /// Whether the token's session is still active. A request with a body reads it first
    /// (`PUT /user`): a lookup that waits for the database must never leave a client waiting
    /// to send its body, which under a burst held requests past the body deadline.
    func active(_ bearer: (user: UserID, claims: TokenClaims)) async throws -> (user: UserID, session: UUID?) {
        guard try await backend.auth.sessions.isActive(bearer.claims) else {
            // GoTrue looks the person up before the session: a deleted account (whose sessions
            // went with it) is `user_not_found`.
            guard try await backend.auth.user(id: bearer.user) != nil else {
                throw GoTrueError(status: .forbidden, code: "user_not_found", message: "User from sub claim in JWT does not exist")
            }
            throw GoTrueError(status: .forbidden, code: "session_not_found", message: "Session from session_id claim in JWT does not exist")
        }
        return (bearer.user, Sessions.id(of: bearer.claims))
    }

    func clientAddress(_ request: Request, _ context: Context) -> String? {
        addresses.clientAddress(peer: context.remoteAddress, headers: request.headers)
    }

    func decode<T: Decodable>(_ request: Request) async throws -> T {
        let data = try await request.collectBody(limit: bodyLimit)
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw GoTrueError(status: .badRequest, code: "bad_json", message: "Could not parse request body as JSON: \(BackendFunctions.describe(error))")
        }
    }
}
