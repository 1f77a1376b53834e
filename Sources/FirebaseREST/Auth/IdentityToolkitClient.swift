import Foundation

/// The Firebase Auth REST API: Identity Toolkit (`accounts:*`) and Secure Token (refresh).
///
/// Stateless: every call takes the tokens it needs and returns what the server said. Keep a
/// signed-in user's tokens in a ``FirebaseAuthSession``, which refreshes them on time.
///
/// ```swift
/// let auth = IdentityToolkitClient(apiKey: "AIza…")
/// let sessionInfo = try await auth.sendVerificationCode(.init(phoneNumber: "+15555550100"))
/// let signedIn = try await auth.signInWithPhoneNumber(sessionInfo: sessionInfo, code: "123456")
/// ```
public struct IdentityToolkitClient: Sendable {
    /// The project's Web API key, sent as `?key=`.
    public var apiKey: String
    /// `https://identitytoolkit.googleapis.com`, or the emulator's
    /// `http://host:port/identitytoolkit.googleapis.com`.
    public var identityToolkitURL: URL
    /// `https://securetoken.googleapis.com`, or the emulator's
    /// `http://host:port/securetoken.googleapis.com`.
    public var secureTokenURL: URL
    let pipeline: HTTPPipeline

    /// The production endpoint of Identity Toolkit.
    public static let productionIdentityToolkitURL = URL(string: "https://identitytoolkit.googleapis.com")!
    /// The production endpoint of Secure Token.
    public static let productionSecureTokenURL = URL(string: "https://securetoken.googleapis.com")!

    /// Creates a client. Pass `identityToolkitURL`/`secureTokenURL` (or use
    /// ``emulator(host:port:apiKey:options:)``) to talk to the Auth emulator.
    public init(
        apiKey: String,
        identityToolkitURL: URL = Self.productionIdentityToolkitURL,
        secureTokenURL: URL = Self.productionSecureTokenURL,
        options: FirebaseHTTPOptions = FirebaseHTTPOptions()
    ) {
        self.apiKey = apiKey
        self.identityToolkitURL = identityToolkitURL
        self.secureTokenURL = secureTokenURL
        self.pipeline = options.pipeline
    }

    /// A client for the Auth emulator, which serves both APIs under its own host with the
    /// production host name as the first path segment.
    public static func emulator(
        host: String, port: Int, apiKey: String = "fake-api-key", options: FirebaseHTTPOptions = FirebaseHTTPOptions()
    ) throws -> IdentityToolkitClient {
        let base = "http://\(host):\(port)"
        return IdentityToolkitClient(
            apiKey: apiKey,
            identityToolkitURL: try httpURL(base + "/identitytoolkit.googleapis.com"),
            secureTokenURL: try httpURL(base + "/securetoken.googleapis.com"),
            options: options)
    }

    // MARK: Phone

    /// Sends an SMS code; returns the `sessionInfo` to pass to
    /// ``signInWithPhoneNumber(sessionInfo:code:)``.
    public func sendVerificationCode(_ request: PhoneVerificationRequest) async throws -> String {
        struct Reply: Decodable { var sessionInfo: String }
        return try await call("sendVerificationCode", body: request, as: Reply.self).sessionInfo
    }

    /// Signs in (creating the account on first use) with the SMS code.
    ///
    /// With the `idToken` of a signed-in user the code instead proves a new number for that
    /// user: the account's phone becomes the one the code was sent to (the SDK's
    /// `updatePhoneNumber`), and the reply carries fresh tokens. A number another account
    /// holds fails with `PHONE_NUMBER_EXISTS`.
    public func signInWithPhoneNumber(sessionInfo: String, code: String, idToken: String? = nil) async throws -> SignInResponse {
        var body: [String: AnyJSON] = ["sessionInfo": .string(sessionInfo), "code": .string(code)]
        if let idToken { body["idToken"] = .string(idToken) }
        return try await call("signInWithPhoneNumber", body: AnyJSON.object(body))
    }

    // MARK: Email and password

    /// Creates an email/password account.
    public func signUp(email: String, password: String) async throws -> SignInResponse {
        try await call(
            "signUp", body: ["email": .string(email), "password": .string(password), "returnSecureToken": true] as AnyJSON)
    }

    /// Creates an anonymous account (a bare `signUp`).
    public func signUpAnonymously() async throws -> SignInResponse {
        try await call("signUp", body: ["returnSecureToken": true] as AnyJSON)
    }

    /// Signs in with email and password.
    public func signIn(email: String, password: String) async throws -> SignInResponse {
        try await call(
            "signInWithPassword",
            body: ["email": .string(email), "password": .string(password), "returnSecureToken": true] as AnyJSON)
    }

    // MARK: Account

    /// The account behind `idToken`.
    public func lookup(idToken: String) async throws -> UserRecord {
        struct Reply: Decodable { var users: [UserRecord]? }
        let response = try await send("lookup", body: ["idToken": .string(idToken)] as AnyJSON)
        guard let user = try response.decode(Reply.self).users?.first else {
            throw IdentityToolkitError(code: .userNotFound, message: "USER_NOT_FOUND", status: response.status)
        }
        return user
    }

    /// Changes the account's email, password, profile or linked providers.
    public func update(idToken: String, _ update: UserUpdate) async throws -> UpdateAccountResponse {
        var body: [String: AnyJSON] = ["idToken": .string(idToken), "returnSecureToken": .bool(update.returnSecureToken)]
        if let email = update.email { body["email"] = .string(email) }
        if let password = update.password { body["password"] = .string(password) }
        if let displayName = update.displayName { body["displayName"] = .string(displayName) }
        if let photoURL = update.photoURL { body["photoUrl"] = .string(photoURL) }
        if !update.deleteAttributes.isEmpty {
            body["deleteAttribute"] = .array(update.deleteAttributes.map { .string($0.rawValue) })
        }
        if !update.deleteProviders.isEmpty { body["deleteProvider"] = .array(update.deleteProviders.map { .string($0) }) }
        return try await call("update", body: AnyJSON.object(body))
    }

    /// Applies an email-verification code from a link (`update` with `{oobCode}`).
    public func confirmEmailVerification(oobCode: String) async throws -> UpdateAccountResponse {
        try await call("update", body: ["oobCode": .string(oobCode)] as AnyJSON)
    }

    /// Deletes the account. Needs a recent sign-in (else `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`).
    public func delete(idToken: String) async throws {
        _ = try await send("delete", body: ["idToken": .string(idToken)] as AnyJSON)
    }

    // MARK: Out-of-band codes

    /// Emails a password-reset link; returns the address the server used.
    @discardableResult
    public func sendPasswordResetEmail(email: String) async throws -> String? {
        try await sendOobCode(["requestType": "PASSWORD_RESET", "email": .string(email)])
    }

    /// Emails an address-verification link to the signed-in user.
    @discardableResult
    public func sendEmailVerification(idToken: String) async throws -> String? {
        try await sendOobCode(["requestType": "VERIFY_EMAIL", "idToken": .string(idToken)])
    }

    /// `accounts:sendOobCode` with any body (for request types without a helper).
    @discardableResult
    public func sendOobCode(_ body: [String: AnyJSON]) async throws -> String? {
        struct Reply: Decodable { var email: String? }
        return try await call("sendOobCode", body: AnyJSON.object(body), as: Reply.self).email
    }

    /// Checks a password-reset code without using it; returns the account's email.
    public func verifyPasswordResetCode(_ oobCode: String) async throws -> ResetPasswordResponse {
        try await call("resetPassword", body: ["oobCode": .string(oobCode)] as AnyJSON)
    }

    /// Sets a new password with a reset code.
    public func resetPassword(oobCode: String, newPassword: String) async throws -> ResetPasswordResponse {
        try await call("resetPassword", body: ["oobCode": .string(oobCode), "newPassword": .string(newPassword)] as AnyJSON)
    }

    // MARK: Secure Token

    /// Exchanges a refresh token for a new ID token.
    ///
    /// Sent form-encoded (`grant_type=refresh_token&refresh_token=…`) as the REST docs show;
    /// the reply is snake_case, unlike every other Auth reply.
    public func refresh(refreshToken: String) async throws -> RefreshTokenResponse {
        let url = try httpURL(secureTokenURL.baseWithoutTrailingSlash + "/v1/token?" + percentEncodedQuery([("key", apiKey)]))
        let form = percentEncodedQuery([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        let request = HTTPRequest(
            method: .post, url: url, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data(form.utf8))
        let response = try await pipeline.send(request)
        guard response.isSuccess else { throw IdentityToolkitError(response: response) }
        return try response.decode(RefreshTokenResponse.self)
    }

    // MARK: Plumbing

    private func call<Body: Encodable, Reply: Decodable>(
        _ method: String, body: Body, as type: Reply.Type = Reply.self
    ) async throws -> Reply {
        try await send(method, body: body).decode(Reply.self)
    }

    /// `POST {base}/v1/accounts:{method}?key=…` with a JSON body; non-2xx becomes an
    /// ``IdentityToolkitError``.
    private func send<Body: Encodable>(_ method: String, body: Body) async throws -> HTTPResponse {
        let url = try httpURL(
            identityToolkitURL.baseWithoutTrailingSlash + "/v1/accounts:" + method + "?" + percentEncodedQuery([("key", apiKey)]))
        let request = HTTPRequest(
            method: .post, url: url, headers: ["Content-Type": "application/json"], body: try encodeJSONBody(body))
        let response = try await pipeline.send(request)
        guard response.isSuccess else { throw IdentityToolkitError(response: response) }
        return response
    }
}
