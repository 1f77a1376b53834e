import LifeSignalDomain
import LifeSignalFunctions

/// Who is asking: the identity every rule checks before it reads or writes.
public enum Caller: Sendable, Hashable {
    /// Not signed in: only public content.
    case anonymous
    /// A signed-in person.
    case user(UserID)
    /// The server itself or an operator holding the service key: bypasses per-user checks.
    case service

    /// The signed-in person, or ``DomainError/unauthenticated``.
    public func requireUser() throws(DomainError) -> UserID {
        guard case .user(let id) = self else { throw .unauthenticated }
        return id
    }

    public var role: DatabaseRole {
        switch self {
        case .anonymous: .anon
        case .user: .authenticated
        case .service: .serviceRole
        }
    }
}
