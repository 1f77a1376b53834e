import Foundation
import LifeSignalDomain

/// The signed-in session a set of adapters holds, shared by the auth adapter that fills it
/// and the other adapters that act for the person in it, and told to whoever follows it.
public actor SessionStore {
    public private(set) var session: AuthSession?
    private var followers: [UUID: AsyncStream<AuthSession?>.Continuation] = [:]

    public init(session: AuthSession? = nil) { self.session = session }

    public func set(_ session: AuthSession?) {
        self.session = session
        for follower in followers.values { follower.yield(session) }
    }

    /// The access token, or ``DomainError/unauthenticated`` when nobody is signed in.
    public func requireToken() throws(DomainError) -> String {
        guard let session else { throw .unauthenticated }
        return session.accessToken
    }

    /// The current session, then every change, until the stream is dropped.
    public func changes() -> AsyncStream<AuthSession?> {
        let (stream, continuation) = AsyncStream<AuthSession?>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        followers[id] = continuation
        continuation.yield(session)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.drop(id) }
        }
        return stream
    }

    private func drop(_ id: UUID) { followers[id] = nil }
}
