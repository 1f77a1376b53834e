import Foundation

/// What the person who checks in sees of their escalation (issue 19): the settings, whether
/// check-ins are paused, the next deadline and who is told in which tier. Every escalation
/// endpoint answers with it, so a screen shows the state the server settled on, not its guess.
public struct CheckInEscalation: Hashable, Codable, Sendable {
    /// One of the person's responders and the tier they are told in (1 first).
    public struct Responder: Hashable, Codable, Sendable, Identifiable {
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
    /// Check-ins are paused until then; `nil` when they are not.
    public var pausedUntil: Date?
    /// The next deadline, once the person has checked in.
    public var deadline: Date?
    /// By tier, then as the server orders them.
    public var responders: [Responder]

    public init(settings: EscalationSettings = EscalationSettings(), pausedUntil: Date? = nil, deadline: Date? = nil, responders: [Responder] = []) {
        self.settings = settings
        self.pausedUntil = pausedUntil
        self.deadline = deadline
        self.responders = responders
    }

    /// Whether check-ins are paused at `now` (a pause whose time has passed is over).
    public func isPaused(at now: Date) -> Bool {
        pausedUntil.map { $0 > now } ?? false
    }
}
