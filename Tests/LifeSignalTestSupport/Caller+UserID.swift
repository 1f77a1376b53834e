import Foundation
import LifeSignalBackend
import LifeSignalDomain

extension Caller {
    /// The signed-in person a test's caller stands for (a fresh id for any other caller, which
    /// then names nobody).
    public var userID: UserID {
        if case .user(let id) = self { return id }
        return UserID(UUID())
    }
}
