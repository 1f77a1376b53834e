import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import SupabaseREST

/// One owner for the refresh token in a mix.
///
/// The backend rotates the refresh token on every refresh and, as GoTrue does, revokes the
/// whole session when a used one comes back. Every provider in a mix holds the same session,
/// so if each refreshed on its own, the second to refresh after an hour would sign the person
/// out everywhere. So the provider that signed the person in refreshes; the others ask it for
/// its current session when theirs is about to expire.
extension AdapterFactory {
    /// The session of the auth provider, refreshed by it when needed; `nil` when signed out.
    typealias SessionOwner = @Sendable () async throws -> AuthSession?

    func sessionOwner(_ provider: BackendProvider) -> SessionOwner? {
        switch provider {
        case .local:
            guard let local else { return nil }
            return {
                do { return try await local.validSession(margin: 60) } catch DomainError.unauthenticated { return nil }
            }
        case .supabase:
            guard let client = supabase?.client else { return nil }
            return {
                do { return try SupabaseAdapters.domainSession(try await client.auth.session) } catch SupabaseREST.AuthError.sessionMissing { return nil }
            }
        case .firebase:
            guard let firebase else { return nil }
            return {
                do { _ = try await firebase.tokens.validTokens() } catch FirebaseAuthSession.SessionError.signedOut {
                    return nil
                } catch let error as IdentityToolkitError where error.endsSession {
                    return nil
                }
                return await firebase.currentSession()
            }
        }
    }

    /// Makes `owner`'s adapters refresh for themselves and every provider in `others` take its
    /// sessions instead of refreshing.
    func delegateRefreshes(owner provider: BackendProvider, others: Set<BackendProvider>) {
        let owner = sessionOwner(provider)
        func handler(for adopter: BackendProvider) -> SessionOwner? { others.contains(adopter) && adopter != provider ? owner : nil }
        if let local { local.delegateRefreshes(to: handler(for: .local)) }
        if let supabase { supabase.client.auth.delegateRefreshes(to: handler(for: .supabase).map(Self.supabaseRefresh(from:))) }
        if let firebase { firebase.tokens.delegateRefreshes(to: handler(for: .firebase).map(Self.firebaseRefresh(from:))) }
    }

    /// A Supabase client's refresh, answered by `owner`.
    static func supabaseRefresh(from owner: @escaping SessionOwner) -> @Sendable (String) async throws -> SupabaseREST.Session {
        { _ in
            guard let session = try await owner() else { throw SupabaseREST.AuthError.sessionMissing }
            return supabaseSession(session)
        }
    }

    /// A Firebase token session's refresh, answered by `owner`.
    static func firebaseRefresh(from owner: @escaping SessionOwner) -> @Sendable (String) async throws -> AuthTokens {
        { _ in
            guard let session = try await owner() else { throw FirebaseAuthSession.SessionError.signedOut }
            return AuthTokens(
                idToken: session.accessToken, refreshToken: session.refreshToken,
                expiresAt: session.expiresAt, localId: session.userID.description)
        }
    }

    /// A session issued elsewhere, as supabase-swift stores one.
    static func supabaseSession(_ session: AuthSession) -> SupabaseREST.Session {
        let now = Date()
        let user = SupabaseREST.User(id: session.userID.rawValue, phone: String(session.phone.e164.dropFirst()), createdAt: now, updatedAt: now)
        return SupabaseREST.Session(
            accessToken: session.accessToken, expiresIn: session.expiresAt.timeIntervalSince(now),
            expiresAt: session.expiresAt.timeIntervalSince1970, refreshToken: session.refreshToken, user: user)
    }
}
