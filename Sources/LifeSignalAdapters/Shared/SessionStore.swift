import LifeSignalDomain

/// The signed-in session an adapter set holds, shared by the auth adapter that fills it and
/// the other adapters that act for the person in it.
public actor SessionStore {
    public private(set) var session: AuthSession?

    public init(session: AuthSession? = nil) { self.session = session }

    public func set(_ session: AuthSession?) { self.session = session }

    /// The access token, or ``DomainError/unauthenticated`` when nobody is signed in.
    public func requireToken() throws(DomainError) -> String {
        guard let session else { throw .unauthenticated }
        return session.accessToken
    }
}
