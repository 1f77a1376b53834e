import Foundation

/// Holds a signed-in user's tokens and keeps the ID token fresh.
///
/// An ID token lives one hour. Like the iOS SDK, the session refreshes it five minutes
/// before expiry (``refreshMargin``), so a request never leaves with a token that expires in
/// flight. It is an actor so that many concurrent requests needing a fresh token share
/// **one** refresh call: the refresh token may be rotated by the server, and two parallel
/// refreshes would race to store different results.
///
/// When a refresh fails for a transient reason (network, timeout, 5xx) while the current
/// token has not actually expired, the current token is used and the next call tries again.
/// When the server says the session is over (``IdentityToolkitError/endsSession``), the
/// tokens are dropped and the user must sign in again.
public actor FirebaseAuthSession: IDTokenProvider {
    /// Why there is no token to give.
    public enum SessionError: Error, Equatable, Sendable {
        /// No user is signed in (never was, signed out, or the server ended the session).
        case signedOut
    }

    private let client: IdentityToolkitClient
    private let now: @Sendable () -> Date
    private let onChange: @Sendable (AuthTokens?) -> Void
    /// How long before expiry the ID token is refreshed.
    public let refreshMargin: TimeInterval
    private var tokens: AuthTokens?
    /// Set when another client owns the refresh token (see ``delegateRefreshes(to:)``).
    private nonisolated let refreshHandler = LockedValue<(@Sendable (_ refreshToken: String) async throws -> AuthTokens)?>(nil)
    private var refreshTask: Task<AuthTokens, any Error>?
    /// Bumped whenever the tokens are replaced from outside, so a refresh that finishes after a
    /// sign-out or a new sign-in does not resurrect the old user.
    private var generation = 0

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - client: Used for the refresh call.
    ///   - tokens: Tokens restored from storage, if any.
    ///   - refreshMargin: Seconds before expiry at which to refresh (default 300).
    ///   - now: The clock; tests inject a fixed one.
    ///   - onChange: Called with every new token set (or `nil` on sign-out) so the app can
    ///     persist it, e.g. in the keychain.
    public init(
        client: IdentityToolkitClient,
        tokens: AuthTokens? = nil,
        refreshMargin: TimeInterval = 300,
        now: @escaping @Sendable () -> Date = { Date() },
        onChange: @escaping @Sendable (AuthTokens?) -> Void = { _ in }
    ) {
        self.client = client
        self.tokens = tokens
        self.refreshMargin = refreshMargin
        self.now = now
        self.onChange = onChange
    }

    /// The tokens as they are now, without refreshing.
    public var currentTokens: AuthTokens? { tokens }

    /// Adopts the reply of a sign-in call.
    public func signIn(with response: SignInResponse) {
        replace(with: response.tokens(issuedAt: now()))
    }

    /// Adopts a token set (restored from storage, or rotated by `accounts:update`).
    public func replace(with newTokens: AuthTokens?) {
        generation += 1
        refreshTask?.cancel()
        refreshTask = nil
        tokens = newTokens
        onChange(newTokens)
    }

    /// Forgets the user.
    public func signOut() { replace(with: nil) }

    /// The ID token, or `nil` when signed out. See ``validTokens()``.
    public func idToken() async throws -> String? {
        guard tokens != nil else { return nil }
        do {
            return try await validTokens().idToken
        } catch SessionError.signedOut {
            return nil
        }
    }

    /// Tokens whose ID token is valid for at least ``refreshMargin`` more seconds, refreshing
    /// first if needed.
    ///
    /// - Throws: ``SessionError/signedOut``, or the refresh's error when the current token
    ///   cannot be used either.
    public func validTokens() async throws -> AuthTokens {
        guard let current = tokens else { throw SessionError.signedOut }
        if now() < current.expiresAt.addingTimeInterval(-refreshMargin) { return current }
        do {
            return try await refresh()
        } catch let error as IdentityToolkitError where error.endsSession {
            throw error
        } catch SessionError.signedOut {
            throw SessionError.signedOut
        } catch {
            if let stillCurrent = tokens, stillCurrent.refreshToken == current.refreshToken, now() < current.expiresAt {
                return current
            }
            throw error
        }
    }

    /// Hands refreshes to `handler` instead of the token endpoint; `nil` restores it.
    ///
    /// For an app where another client owns the sign-in: a rotated refresh token must be
    /// presented by one holder only. With a handler, tokens about to expire are replaced by what
    /// it returns (the owner's current tokens, refreshed by the owner); it throws
    /// ``SessionError/signedOut`` when the owner is signed out, which signs out here too.
    public nonisolated func delegateRefreshes(to handler: (@Sendable (_ refreshToken: String) async throws -> AuthTokens)?) {
        refreshHandler.withValue { $0 = handler }
    }

    /// Refreshes now, joining a refresh already in flight.
    @discardableResult
    public func refresh() async throws -> AuthTokens {
        if let refreshTask { return try await refreshTask.value }
        guard let refreshToken = tokens?.refreshToken else { throw SessionError.signedOut }
        let client = self.client
        let now = self.now
        let handler = refreshHandler.value
        let task = Task {
            if let handler { return try await handler(refreshToken) }
            return try await client.refresh(refreshToken: refreshToken).tokens(issuedAt: now())
        }
        refreshTask = task
        let startedGeneration = generation
        do {
            let fresh = try await task.value
            guard generation == startedGeneration else { throw SessionError.signedOut }
            refreshTask = nil
            tokens = fresh
            onChange(fresh)
            return fresh
        } catch {
            guard generation == startedGeneration else { throw error }
            refreshTask = nil
            if let authError = error as? IdentityToolkitError, authError.endsSession {
                replace(with: nil)
            } else if error as? SessionError == .signedOut {
                replace(with: nil)
            }
            throw error
        }
    }
}
