import Foundation

/// Owns the stored session and its refreshes.
///
/// An actor so that concurrent callers of ``AuthClient/session`` share one refresh: the
/// first caller that finds the session about to expire starts the refresh task, later
/// callers await the same task. GoTrue rotates refresh tokens, so two parallel refreshes
/// with the same token would make the second fail with `refresh_token_already_used` and
/// sign the user out.
actor SessionManager {
    let store: SessionStore
    let api: AuthAPI
    let events: AuthEventBroadcaster
    /// Sessions expiring within this many seconds are refreshed before use.
    let refreshMargin: TimeInterval

    /// Set when another client owns the refresh token (see ``AuthClient/delegateRefreshes(to:)``).
    nonisolated let refreshHandler = LockedValue<(@Sendable (_ refreshToken: String) async throws -> Session)?>(nil)

    private var refreshTask: Task<Session, any Error>?
    /// Bumped by every sign-in/sign-out, so a refresh that completes afterwards does not
    /// resurrect a session the user has left.
    private var generation = 0

    init(store: SessionStore, api: AuthAPI, events: AuthEventBroadcaster, refreshMargin: TimeInterval) {
        self.store = store
        self.api = api
        self.events = events
        self.refreshMargin = refreshMargin
    }

    /// The stored session, refreshed first when it expires within the margin.
    func session() async throws -> Session {
        guard let current = store.load() else { throw AuthError.sessionMissing }
        if current.expiresAt - Date().timeIntervalSince1970 > refreshMargin { return current }
        return try await refresh(refreshToken: current.refreshToken)
    }

    /// Exchanges `refreshToken` for a new session, joining a refresh already in flight.
    func refresh(refreshToken: String) async throws -> Session {
        if let refreshTask { return try await refreshTask.value }
        let task = Task { try await self.performRefresh(refreshToken) }
        refreshTask = task
        defer { refreshTask = nil }
        return try await task.value
    }

    private func performRefresh(_ refreshToken: String) async throws -> Session {
        let startGeneration = generation
        do {
            let session: Session
            if let handler = refreshHandler.value {
                session = try await handler(refreshToken)
            } else {
                let response = try await api.send(
                    .post, "token", query: [QueryItem(name: "grant_type", value: "refresh_token")],
                    body: RefreshTokenParams(refreshToken: refreshToken))
                session = try api.decode(Session.self, from: response)
            }
            if generation == startGeneration {
                try events.record {
                    try store.save(session)
                    return (.tokenRefreshed, session)
                }
            }
            return session
        } catch AuthError.sessionMissing {
            if generation == startGeneration { try? removeSession() }
            throw AuthError.sessionMissing
        }
    }

    /// Stores a new session (sign-in).
    func setSession(_ session: Session, event: AuthChangeEvent) throws {
        generation += 1
        try events.record {
            try store.save(session)
            return (event, session)
        }
    }

    /// Replaces the user of the stored session (after `PUT /user`).
    func updateUser(_ user: User) throws {
        try events.record {
            guard var session = store.load() else { return nil }
            session.user = user
            try store.save(session)
            return (.userUpdated, session)
        }
    }

    /// Forgets the session and reports `signedOut` (only when there was one).
    func removeSession() throws {
        generation += 1
        try events.record {
            let hadSession = store.load() != nil
            try store.remove()
            return hadSession ? (.signedOut, nil) : nil
        }
    }
}
