import Foundation

/// How a missed check-in escalates, chosen by the person who checks in (issue 19): a grace
/// period after the deadline before responders are told, the delay before the next tier is
/// told while nobody has acknowledged, and how often the person and the current tier are
/// reminded meanwhile.
public struct EscalationSettings: Hashable, Codable, Sendable {
    /// Seconds after the deadline before responders are told; 0 tells them at the deadline.
    public var graceSeconds: Int
    /// Seconds between one tier and the next while nobody has said "I'm on it".
    public var tierDelaySeconds: Int
    /// Seconds between repeats to the person and the current tier while nobody has
    /// acknowledged; `nil` repeats nothing.
    public var repeatSeconds: Int?

    public init(graceSeconds: Int = 0, tierDelaySeconds: Int = 7200, repeatSeconds: Int? = nil) {
        self.graceSeconds = graceSeconds
        self.tierDelaySeconds = tierDelaySeconds
        self.repeatSeconds = repeatSeconds
    }

    public static let graceRange = 0...86_400
    public static let tierDelayRange = 300...86_400
    public static let repeatRange = 900...86_400
    /// Tiers a person may give a responder.
    public static let tierRange = 1...9
    /// How far ahead check-ins may be paused.
    public static let longestPause: TimeInterval = 30 * 24 * 3600

    /// Each number in its range; the message names the field as the functions spell it.
    public func validate() throws(DomainError) {
        guard Self.graceRange.contains(graceSeconds) else {
            throw .invalidArgument("graceSeconds must be from 0 to 86400 (24 hours), not \(graceSeconds)")
        }
        guard Self.tierDelayRange.contains(tierDelaySeconds) else {
            throw .invalidArgument("tierDelaySeconds must be from 300 to 86400 (5 minutes to 24 hours), not \(tierDelaySeconds)")
        }
        if let repeatSeconds, !Self.repeatRange.contains(repeatSeconds) {
            throw .invalidArgument("repeatSeconds must be 0 (no repeats) or from 900 to 86400 (15 minutes to 24 hours), not \(repeatSeconds)")
        }
    }

    /// Throws unless `tier` is in ``tierRange``.
    public static func validate(tier: Int) throws(DomainError) {
        guard tierRange.contains(tier) else { throw .invalidArgument("tier must be from 1 to 9, not \(tier)") }
    }
}
