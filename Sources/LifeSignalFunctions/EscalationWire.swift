import Foundation
import LifeSignalDomain

/// `update-escalation-settings`: any of the three, in seconds; `repeatSeconds` 0 turns repeats
/// off.
public struct UpdateEscalationSettingsRequest: Codable, Sendable {
    public var graceSeconds: Int?
    public var tierDelaySeconds: Int?
    public var repeatSeconds: Int?

    public init(graceSeconds: Int? = nil, tierDelaySeconds: Int? = nil, repeatSeconds: Int? = nil) {
        self.graceSeconds = graceSeconds
        self.tierDelaySeconds = tierDelaySeconds
        self.repeatSeconds = repeatSeconds
    }
}

/// `update-contact-tier`: the tier (1…9) of one of the caller's responders.
public struct UpdateContactTierRequest: Codable, Sendable {
    public var contactId: String
    public var tier: Int
    public init(contactId: String, tier: Int) {
        self.contactId = contactId
        self.tier = tier
    }
}

/// `pause-check-ins`: until when (ISO 8601, after now, at most 30 days ahead).
public struct PauseCheckInsRequest: Codable, Sendable {
    public var until: String
    public init(until: String) { self.until = until }
}

/// The reply of every escalation function: the settings, the pause, the next deadline and the
/// responders by tier.
public struct EscalationSettingsResponse: Codable, Sendable, Hashable {
    public struct Responder: Codable, Sendable, Hashable {
        public var contactId: String
        public var name: String
        public var tier: Int

        public init(contactId: String, name: String, tier: Int) {
            self.contactId = contactId
            self.name = name
            self.tier = tier
        }
    }

    public var success: Bool
    public var graceSeconds: Int
    public var tierDelaySeconds: Int
    /// 0: no repeats.
    public var repeatSeconds: Int
    /// Set while check-ins are paused.
    public var pausedUntil: String?
    public var nextCheckInTime: String?
    public var responders: [Responder]

    public init(_ overview: CheckInEscalation) {
        success = true
        graceSeconds = overview.settings.graceSeconds
        tierDelaySeconds = overview.settings.tierDelaySeconds
        repeatSeconds = overview.settings.repeatSeconds ?? 0
        pausedUntil = overview.pausedUntil.map(Timestamp.format)
        nextCheckInTime = overview.deadline.map(Timestamp.format)
        responders = overview.responders.map { Responder(contactId: $0.id.description, name: $0.name, tier: $0.tier) }
    }

    public init(
        success: Bool, graceSeconds: Int, tierDelaySeconds: Int, repeatSeconds: Int, pausedUntil: String? = nil, nextCheckInTime: String? = nil,
        responders: [Responder]
    ) {
        self.success = success
        self.graceSeconds = graceSeconds
        self.tierDelaySeconds = tierDelaySeconds
        self.repeatSeconds = repeatSeconds
        self.pausedUntil = pausedUntil
        self.nextCheckInTime = nextCheckInTime
        self.responders = responders
    }
}
