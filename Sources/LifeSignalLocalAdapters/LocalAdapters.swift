import Dependencies
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

/// Clients filled by ``LifeSignalBackend`` in-process: the embedded default, offline, no
/// server.
///
/// The adapters still go through the backend's token check, so a session that expires
/// in-process expires exactly as it would over HTTP.
public struct LocalAdapters: Sendable {
    public let backend: LifeSignalBackend
    public let sessions: SessionStore
    /// Where `lifesignal serve` over the same data answers: public file URLs (avatars) point
    /// there, so a profile written offline shows its picture once served.
    public let publicURL: URL
    /// Set when another provider owns the sign-in (``delegateRefreshes(to:)``).
    let refreshHandler = LockIsolated<(@Sendable () async throws -> AuthSession?)?>(nil)

    public init(
        backend: LifeSignalBackend, sessions: SessionStore = SessionStore(),
        publicURL: URL = URL(string: "http://127.0.0.1:54321") ?? URL(fileURLWithPath: "/")
    ) {
        self.backend = backend
        self.sessions = sessions
        self.publicURL = publicURL
    }

    /// The caller the current session's token stands for, refreshing the session first when
    /// its access token expires within a minute (as supabase-swift does before a request).
    func caller() async throws -> Caller {
        let session = try await validSession()
        do { return try await backend.auth.tokens.caller(bearer: session.accessToken) } catch {
            throw DomainError.unauthenticated
        }
    }

    /// The current session, refreshed first when it expires within `margin` seconds: by the
    /// backend, or by the provider that owns the sign-in when refreshes are delegated.
    public func validSession(margin: TimeInterval = 60) async throws -> AuthSession {
        guard let session = await sessions.session else { throw DomainError.unauthenticated }
        guard session.expiresAt.timeIntervalSince(backend.clock.now()) < margin else { return session }
        let refreshed: AuthSession
        if let owner = refreshHandler.value {
            guard let owned = try await owner() else {
                await sessions.set(nil)
                throw DomainError.unauthenticated
            }
            refreshed = owned
        } else {
            let issued = try await backend.auth.sessions.refresh(refreshToken: session.refreshToken)
            guard let session = issued.domainSession else { throw DomainError.unauthenticated }
            refreshed = session
        }
        await sessions.set(refreshed)
        return refreshed
    }

    /// Takes fresh sessions from `owner` instead of refreshing here; `nil` refreshes here again.
    ///
    /// In a mix the provider that signed the person in owns the refresh token: the backend
    /// rotates it on every refresh and revokes the session when a used one comes back, so a
    /// second holder refreshing on its own would sign the person out everywhere. `owner`
    /// returns the owner's current session, or `nil` when it is signed out.
    public func delegateRefreshes(to owner: (@Sendable () async throws -> AuthSession?)?) {
        refreshHandler.withValue { $0 = owner }
    }

    public var authClient: AuthClient {
        AuthClient(
            sendCode: { phone in try await backend.auth.requestCode(phone: phone.e164) },
            verifyCode: { phone, code in
                let issued = try await backend.auth.verifyCode(phone: phone.e164, code: code.value)
                guard let session = issued.domainSession else { throw DomainError.internal("account has no phone") }
                await sessions.set(session)
                return session
            },
            currentSession: { await sessions.session },
            signOut: { await sessions.set(nil) },
            requestPhoneChange: { phone in
                let user = try await caller().requireUser()
                do { try await backend.auth.requestPhoneChange(user: user, phone: phone.e164) } catch AuthRefusal.phoneExists {
                    throw DomainError.alreadyExists("An account with the phone \(phone.e164)")
                }
            },
            confirmPhoneChange: { phone, code in
                let issued = try await backend.auth.verifyPhoneChange(phone: phone.e164, code: code.value)
                guard let session = issued.domainSession else { throw DomainError.internal("account has no phone") }
                await sessions.set(session)
                return session
            },
            deleteAccount: {
                try await backend.profiles.deleteAccount(caller: try await caller())
                await sessions.set(nil)
            },
            sessionChanges: { await sessions.changes() }
        )
    }

    public var checkInClient: CheckInClient {
        CheckInClient(
            checkIn: { try await backend.checkIns.checkIn(caller: try await caller()) },
            status: { try await backend.checkIns.status(caller: try await caller()) },
            settings: { try await backend.profiles.profile(caller: try await caller()).settings },
            updateSettings: { interval, lead in
                try await backend.profiles.updateCheckInSettings(caller: try await caller(), interval: interval, reminderLead: lead).settings
            },
            history: { limit in try await backend.checkIns.history(caller: try await caller(), limit: limit) },
            escalation: { CheckInEscalation(try await backend.checkIns.escalation(caller: try await caller())) },
            updateEscalation: { grace, delay, repeats in
                CheckInEscalation(
                    try await backend.checkIns.updateEscalation(
                        caller: try await caller(), graceSeconds: grace, tierDelaySeconds: delay, repeatSeconds: repeats))
            },
            setResponderTier: { responder, tier in
                CheckInEscalation(try await backend.checkIns.updateTier(caller: try await caller(), responder: responder, tier: tier))
            },
            pause: { CheckInEscalation(try await backend.checkIns.pause(caller: try await caller(), until: $0)) },
            resume: { CheckInEscalation(try await backend.checkIns.resume(caller: try await caller())) },
            checkInWithPIN: { try await backend.checkIns.checkIn(caller: try await caller(), pin: $0) },
            pinSettings: { try await backend.checkInPINs.settings(caller: try await caller()) },
            setPINs: { try await backend.checkInPINs.set(caller: try await caller(), pin: $0, duressPIN: $1) }
        )
    }
}
