import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

extension CheckInEscalation {
    /// The clients' view of the backend's overview: the same fields the escalation functions
    /// send, so every adapter answers alike.
    init(_ overview: CheckInEscalation) {
        self.init(
            settings: overview.settings, pausedUntil: overview.pausedUntil, deadline: overview.deadline,
            responders: overview.responders.map { Responder(id: $0.id, name: $0.name, tier: $0.tier) })
    }
}
