import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// `/auth/v1` email and password: `signup`, `token?grant_type=password`, `PUT /user`
/// (GoTrue's email and password endpoints), with GoTrue's error codes and both error shapes.
extension AuthRoutes {
    func signUp(_ request: Request, context: Context) async throws -> Response {
        let body: PasswordRequest = try await decode(request)
        guard let email = body.email, body.phone == nil else {
            throw GoTrueError(
                status: .badRequest, code: "validation_failed",
                message: body.phone == nil ? "To sign up, please provide your email" : "Only an email address or phone number should be provided on signup.")
        }
        guard let password = body.password, !password.isEmpty else {
            throw GoTrueError(status: .badRequest, code: "validation_failed", message: "Signup requires a valid password")
        }
        let metadata = try Self.metadataObject(body.data)
        return try await Self.hashingThrottle {
            // GoTrue answers the session when the address needs no confirming, else the user alone.
            switch try await backend.auth.signUp(
                email: email, password: password, metadataJSON: metadata?.jsonText ?? "{}",
                clientAddress: clientAddress(request, context), captchaToken: body.security?.captchaToken)
            {
            case .session(let session): JSONResponse.make(.ok, GoTrueSession(session))
            case .confirmationSent(let user): JSONResponse.make(.ok, GoTrueUser(user))
            }
        }
    }

    /// GoTrue's `resend` for `signup`: a fresh code for an address not proven yet; `{}` whether
    /// or not an account has it.
    func resend(_ request: Request, context: Context) async throws -> Response {
        let body: ResendRequest = try await decode(request)
        guard body.type == "signup", let email = body.email else {
            throw GoTrueError(status: .badRequest, code: "validation_failed", message: "Resend takes {\"type\": \"signup\", \"email\": …}")
        }
        try await backend.auth.resendSignUpCode(
            email: email, clientAddress: clientAddress(request, context), captchaToken: body.security?.captchaToken)
        return JSONResponse.make(.ok, [String: String]())
    }

    func passwordGrant(_ request: Request) async throws -> Response {
        let body: PasswordRequest = try await decode(request)
        if body.email != nil && body.phone != nil {
            throw GoTrueError(status: .badRequest, code: "validation_failed", message: "Only an email address or phone number should be provided on login.")
        }
        guard let password = body.password, body.email != nil || body.phone != nil else {
            throw GoTrueError(status: .badRequest, code: "invalid_credentials", message: "Invalid login credentials")
        }
        return try await Self.hashingThrottle {
            JSONResponse.make(.ok, GoTrueSession(try await backend.auth.passwords.signIn(email: body.email, phone: body.phone, password: password)))
        }
    }

    /// Words a throttle met while hashing or checking a password (too many wrong passwords
    /// for the identifier, or the hashing pool's line full) as GoTrue's
    /// `over_request_rate_limit`; codes have their own wording.
    static func hashingThrottle<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch DomainError.rateLimited(let wait) {
            throw GoTrueError.throttled("over_request_rate_limit", wait: wait)
        }
    }

    /// GoTrue's `PUT /user`. Changing the password, email or phone needs a sign-in within
    /// ``AuthPolicy/reauthenticationWindow`` or a `nonce` from `GET /reauthenticate`
    /// (``AuthService/ensureReauthenticated(user:session:nonce:)``); a new password ends every
    /// other session.
    func updateUser(_ request: Request, context: Context) async throws -> Response {
        let token = try bearer(context)
        let body: UserUpdateRequest = try await decode(request)
        let caller = try await active(token)
        let metadata = try Self.metadataObject(body.data)
        let merge = metadata.flatMap { try? JSONSerialization.jsonObject(with: Data($0.jsonText.utf8)) as? [String: Any] }
        guard let current = try await backend.auth.user(id: caller.user) else { throw AuthRefusal.userNotFound }
        // Refused before a nonce is spent on it.
        if let password = body.password, password.count < backend.auth.policy.minimumPasswordLength { throw AuthRefusal.weakPassword }
        let newEmail = try body.email.map(AuthService.normalizedEmail)
        let newPhone = try body.phone.map { try PhoneNumber($0.hasPrefix("+") ? $0 : "+" + $0).digits }
        let changesSignIn =
            body.password != nil || (newEmail != nil && newEmail != current.email)
            || (newPhone != nil && newPhone != current.phone?.digits)
        if changesSignIn {
            do {
                try await backend.auth.reauthentication.ensure(user: caller.user, session: caller.session, nonce: body.nonce)
            } catch AuthRefusal.reauthenticationNeeded where body.password == nil {
                // GoTrue's words name the password; an email or phone change gets its own.
                throw GoTrueError(
                    status: .badRequest, code: "reauthentication_needed",
                    message: "Email or phone update requires reauthentication")
            }
        }
        // As GoTrue: a new phone is not set but sent a `phone_change` code; it changes when
        // that code comes back through `POST /verify`. Whether another account has that
        // number is said only then, to whoever holds the phone (docs/security.md, "Sessions").
        if let phone = body.phone {
            try await backend.auth.requestPhoneChange(
                user: caller.user, phone: phone, clientAddress: clientAddress(request, context),
                revealingTakenNumber: false)
        }
        let user = try await Self.hashingThrottle {
            try await backend.auth.updateUser(
                id: caller.user, email: body.email, password: body.password, metadata: merge,
                keepingSession: caller.session, clientAddress: clientAddress(request, context))
        }
        return JSONResponse.make(.ok, GoTrueUser(user))
    }

    /// `data` must be an object when given.
    static func metadataObject(_ value: JSONValue?) throws -> JSONValue? {
        switch value {
        case nil, .null?: return nil
        case .object?: return value
        default: throw GoTrueError(status: .badRequest, code: "validation_failed", message: "data must be a JSON object")
        }
    }
}
