import Foundation
import LifeSignalDomain

/// A person's escalation settings, their responders' tiers and the pause, as
/// `get-escalation-settings` answers them.
public struct EscalationOverview: Sendable, Hashable {
    public struct Responder: Sendable, Hashable {
        public var id: UserID
        public var name: String
        public var tier: Int

        public init(id: UserID, name: String, tier: Int) {
            self.id = id
            self.name = name
            self.tier = tier
        }
    }

    public var settings: EscalationSettings
    /// Check-ins are paused until then (`nil`: not paused).
    public var pausedUntil: Date?
    public var deadline: Date?
    /// The person's responders by tier, then id.
    public var responders: [Responder]

    public init(settings: EscalationSettings, pausedUntil: Date?, deadline: Date?, responders: [Responder]) {
        self.settings = settings
        self.pausedUntil = pausedUntil
        self.deadline = deadline
        self.responders = responders
    }
}
