import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// Signing in by phone: request a code by SMS, exchange it for a session, sign out.
///
/// This is the interface features use; an adapter (Local, Supabase, Firebase) provides the
/// live value. The test value fails on any call a test has not overridden.
@DependencyClient
public struct AuthClient: Sendable {
    /// Sends a 6-digit code by SMS to `phone`.
    public var sendCode: @Sendable (_ phone: PhoneNumber) async throws -> Void
    /// Exchanges the code for a session; the session is kept for later calls.
    public var verifyCode: @Sendable (_ phone: PhoneNumber, _ code: OneTimeCode) async throws -> AuthSession
    /// The current session, if signed in.
    public var currentSession: @Sendable () async -> AuthSession? = { nil }
    /// Ends the session on the backend and forgets it locally.
    public var signOut: @Sendable () async throws -> Void
    /// Sends a code to a new number to move my account there; nothing changes until
    /// ``confirmPhoneChange`` brings the code back. A number another account uses is
    /// ``DomainError/alreadyExists(_:)``.
    public var requestPhoneChange: @Sendable (_ phone: PhoneNumber) async throws -> Void
    /// Moves my account (sign-in and the phone contacts see) to `phone`, proven by the code
    /// sent there; returns the new session.
    public var confirmPhoneChange: @Sendable (_ phone: PhoneNumber, _ code: OneTimeCode) async throws -> AuthSession
    /// Deletes the account and everything in it, then signs out. Contacts are told.
    public var deleteAccount: @Sendable () async throws -> Void
    /// The session each time it changes (`nil` when signed out), starting with the current one.
    public var sessionChanges: @Sendable () async -> AsyncStream<AuthSession?> = { AsyncStream { $0.finish() } }
}

extension AuthClient: TestDependencyKey {
    public static let testValue = AuthClient()

    /// Signs in anyone with the code `123456`.
    public static var previewValue: AuthClient {
        let store = SessionStore()
        return AuthClient(
            sendCode: { _ in },
            verifyCode: { phone, code in
                guard code.value == "123456" else { throw DomainError.invalidOTP }
                let session = AuthSession(
                    userID: UserID(UUID()), phone: phone, accessToken: "preview", refreshToken: "preview",
                    expiresAt: Date().addingTimeInterval(3600), isNewUser: false)
                await store.set(session)
                return session
            },
            currentSession: { await store.session },
            signOut: { await store.set(nil) },
            requestPhoneChange: { _ in },
            confirmPhoneChange: { phone, code in
                guard code.value == "123456", var session = await store.session else { throw DomainError.invalidOTP }
                session.phone = phone
                await store.set(session)
                return session
            },
            deleteAccount: { await store.set(nil) },
            sessionChanges: { await store.changes() }
        )
    }
}

extension DependencyValues {
    public var authClient: AuthClient {
        get { self[AuthClient.self] }
        set { self[AuthClient.self] = newValue }
    }
}
