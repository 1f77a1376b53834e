import Foundation

/// Supabase Auth (GoTrue): sign-in, the session and its refreshes, the user.
///
/// Every request sends `apikey`, `X-Supabase-Api-Version: 2024-01-01` (which selects
/// GoTrue's `{code, message}` error shape) and `Authorization: Bearer <key>`, or the user's
/// access token for `/user` and `/logout`. The session lives in the configured
/// ``AuthLocalStorage``; ``session`` refreshes it on demand — there is no background timer.
public final class AuthClient: Sendable {
    let api: AuthAPI
    let manager: SessionManager
    let events: AuthEventBroadcaster
    let store: SessionStore

    init(api: AuthAPI, store: SessionStore, refreshMargin: TimeInterval) {
        let events = AuthEventBroadcaster()
        self.api = api
        self.store = store
        self.events = events
        manager = SessionManager(store: store, api: api, events: events, refreshMargin: refreshMargin)
    }

    // MARK: Session

    /// The stored session as is, possibly expired; `nil` when signed out.
    public var currentSession: Session? { store.load() }

    /// The user of the stored session; `nil` when signed out.
    public var currentUser: User? { currentSession?.user }

    /// A valid session: the stored one, refreshed first when it expires within 60 s.
    ///
    /// Concurrent callers share a single refresh request.
    ///
    /// - Throws: ``AuthError/sessionMissing`` when signed out or when the server no longer
    ///   knows the session (which is then cleared); other ``AuthError``s when the refresh
    ///   fails otherwise (the session is kept, so a later call may succeed).
    public var session: Session {
        get async throws { try await manager.session() }
    }

    /// The sign-in state as a stream: first `(.initialSession, <current session>)`, then
    /// every `signedIn`, `tokenRefreshed`, `userUpdated` and `signedOut`. Each access returns
    /// a new independent stream; it ends when the consumer stops iterating.
    public var authStateChanges: AsyncStream<(event: AuthChangeEvent, session: Session?)> {
        events.stream { store.load() }
    }

    /// Exchanges `refreshToken` (the stored session's when `nil`) for a new session,
    /// stores it and reports `tokenRefreshed`. Joins a refresh already in flight.
    @discardableResult
    public func refreshSession(refreshToken: String? = nil) async throws -> Session {
        guard let token = refreshToken ?? currentSession?.refreshToken else {
            throw AuthError.sessionMissing
        }
        return try await manager.refresh(refreshToken: token)
    }

    /// Adopts a session obtained elsewhere (e.g. restored from another store) and reports
    /// `signedIn`.
    public func setSession(_ session: Session) async throws {
        try await manager.setSession(session, event: .signedIn)
    }

    /// Hands refreshes to `handler` instead of GoTrue; `nil` restores GoTrue.
    ///
    /// For an app where another client owns the sign-in (supabase-swift's "third-party auth"
    /// case, or a second Supabase client on the same project): GoTrue rotates refresh tokens
    /// and revokes the session when a used one comes back, so only one holder of a refresh
    /// token may ever present it. With a handler, a session that is about to expire is replaced
    /// by whatever the handler returns (the owner's current session, refreshed by the owner);
    /// it throws ``AuthError/sessionMissing`` when the owner is signed out.
    public func delegateRefreshes(to handler: (@Sendable (_ refreshToken: String) async throws -> Session)?) {
        manager.refreshHandler.withValue { $0 = handler }
    }

    // MARK: Phone one-time codes

    /// Sends a one-time code to `phone` (`POST /otp`).
    ///
    /// - Parameters:
    ///   - phone: E.164, e.g. `+14155550100`.
    ///   - channel: SMS (default) or WhatsApp.
    ///   - shouldCreateUser: Sign up an unknown number (`create_user`); when `false` an
    ///     unknown number fails with `otp_disabled`.
    ///   - data: `user_metadata` for a user created by this call.
    public func signInWithOTP(
        phone: String,
        channel: MessagingChannel = .sms,
        shouldCreateUser: Bool = true,
        data: [String: AnyJSON]? = nil,
        captchaToken: String? = nil
    ) async throws {
        try await api.send(
            .post, "otp",
            body: OTPParams(
                phone: phone, createUser: shouldCreateUser, channel: channel.rawValue, data: data,
                gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)))
    }

    /// Sends a one-time code or magic link to `email` (`POST /otp`).
    public func signInWithOTP(
        email: String,
        redirectTo: URL? = nil,
        shouldCreateUser: Bool = true,
        data: [String: AnyJSON]? = nil,
        captchaToken: String? = nil
    ) async throws {
        try await api.send(
            .post, "otp", query: redirectQuery(redirectTo),
            body: OTPParams(
                email: email, createUser: shouldCreateUser, data: data,
                gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)))
    }

    /// Verifies a phone code (`POST /verify`, `{"type":"sms","phone","token"}`); on success
    /// stores the session and reports `signedIn`.
    @discardableResult
    public func verifyOTP(
        phone: String,
        token: String,
        type: MobileOTPType,
        captchaToken: String? = nil
    ) async throws -> AuthResponse {
        try await verify(
            VerifyOTPParams(
                phone: phone, token: token, type: type.rawValue,
                gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)), redirectTo: nil)
    }

    /// Verifies an email code (`POST /verify`); on success stores the session.
    @discardableResult
    public func verifyOTP(
        email: String,
        token: String,
        type: EmailOTPType,
        redirectTo: URL? = nil,
        captchaToken: String? = nil
    ) async throws -> AuthResponse {
        try await verify(
            VerifyOTPParams(
                email: email, token: token, type: type.rawValue,
                gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)), redirectTo: redirectTo)
    }

    private func verify(_ params: VerifyOTPParams, redirectTo: URL?) async throws -> AuthResponse {
        let response = try await api.send(.post, "verify", query: redirectQuery(redirectTo), body: params)
        return try await adopt(api.decodeAuthResponse(from: response))
    }

    // MARK: Passwords

    /// Creates a user with email and password (`POST /signup`). Returns a session (and
    /// stores it) when the project auto-confirms, else the unconfirmed user.
    @discardableResult
    public func signUp(
        email: String,
        password: String,
        data: [String: AnyJSON]? = nil,
        redirectTo: URL? = nil,
        captchaToken: String? = nil
    ) async throws -> AuthResponse {
        let response = try await api.send(
            .post, "signup", query: redirectQuery(redirectTo),
            body: CredentialsParams(
                email: email, password: password, data: data,
                gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)))
        return try await adopt(api.decodeAuthResponse(from: response))
    }

    /// Creates a user with phone and password (`POST /signup`); a code is sent by `channel`.
    @discardableResult
    public func signUp(
        phone: String,
        password: String,
        channel: MessagingChannel = .sms,
        data: [String: AnyJSON]? = nil,
        captchaToken: String? = nil
    ) async throws -> AuthResponse {
        let response = try await api.send(
            .post, "signup",
            body: CredentialsParams(
                phone: phone, password: password, data: data, channel: channel.rawValue,
                gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)))
        return try await adopt(api.decodeAuthResponse(from: response))
    }

    /// Signs in with email and password (`POST /token?grant_type=password`), stores the
    /// session and reports `signedIn`.
    @discardableResult
    public func signIn(email: String, password: String, captchaToken: String? = nil) async throws -> Session {
        try await passwordGrant(
            CredentialsParams(email: email, password: password, gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)))
    }

    /// Signs in with phone and password (`POST /token?grant_type=password`).
    @discardableResult
    public func signIn(phone: String, password: String, captchaToken: String? = nil) async throws -> Session {
        try await passwordGrant(
            CredentialsParams(phone: phone, password: password, gotrueMetaSecurity: GoTrueMetaSecurity(captchaToken)))
    }

    private func passwordGrant(_ params: CredentialsParams) async throws -> Session {
        let response = try await api.send(
            .post, "token", query: [QueryItem(name: "grant_type", value: "password")], body: params)
        let session = try api.decode(Session.self, from: response)
        try await manager.setSession(session, event: .signedIn)
        return session
    }

    // MARK: User

    /// Fetches the user of `jwt`, or of the current session when `nil` (`GET /user`).
    ///
    /// - Throws: ``AuthError/sessionMissing`` when signed out or the session is gone on the
    ///   server (the local session is then cleared when it was the one used).
    public func user(jwt: String? = nil) async throws -> User {
        let token: String
        if let jwt { token = jwt } else { token = try await session.accessToken }
        do {
            let response = try await api.send(.get, "user", bearer: token)
            return try api.decode(User.self, from: response)
        } catch AuthError.sessionMissing {
            if jwt == nil { try? await manager.removeSession() }
            throw AuthError.sessionMissing
        }
    }

    /// Changes the signed-in user (`PUT /user`), updates the stored session's user and
    /// reports `userUpdated`.
    @discardableResult
    public func update(user attributes: UserAttributes, redirectTo: URL? = nil) async throws -> User {
        let token = try await session.accessToken
        do {
            let response = try await api.send(
                .put, "user", query: redirectQuery(redirectTo), body: attributes, bearer: token)
            let user = try api.decode(User.self, from: response)
            try await manager.updateUser(user)
            return user
        } catch AuthError.sessionMissing {
            try? await manager.removeSession()
            throw AuthError.sessionMissing
        }
    }

    /// Signs out: clears the local session (reporting `signedOut`), then revokes it on the
    /// server (`POST /logout?scope=…`). As in supabase-swift, 401/403/404 from `/logout` are
    /// ignored — the token is already invalid there — and signing out while signed out does
    /// nothing. With `.others` the local session is kept.
    public func signOut(scope: SignOutScope = .global) async throws {
        guard let accessToken = currentSession?.accessToken else { return }
        if scope != .others { try await manager.removeSession() }
        do {
            try await api.send(
                .post, "logout", query: [QueryItem(name: "scope", value: scope.rawValue)], bearer: accessToken)
        } catch AuthError.api(_, _, let status) where [401, 403, 404].contains(status) {
            return
        } catch AuthError.sessionMissing {
            return
        }
    }

    // MARK: Helpers

    private func adopt(_ response: AuthResponse) async throws -> AuthResponse {
        if let session = response.session {
            try await manager.setSession(session, event: .signedIn)
        }
        return response
    }

    private func redirectQuery(_ url: URL?) -> [QueryItem] {
        url.map { [QueryItem(name: "redirect_to", value: $0.absoluteString)] } ?? []
    }
}
