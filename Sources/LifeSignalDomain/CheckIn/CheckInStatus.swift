import Foundation

/// The colour of the check-in button: how much of the interval is left.
public enum ColorBand: String, Hashable, Codable, Sendable, CaseIterable {
    /// More than half of the interval left.
    case green
    /// More than a fifth left.
    case yellow
    /// Some time left.
    case orange
    /// The deadline has passed.
    case red
}

/// Rules about check-ins that need no I/O.
public enum CheckInRules {
    /// A repeat check-in within this many seconds is refused as too soon.
    public static let cooldown: TimeInterval = 5 * 60

    /// How many past check-ins one history read may ask for.
    public static let historyLimit = 1...500

    /// Throws ``DomainError/invalidArgument(_:)`` for a history `limit` outside ``historyLimit``.
    public static func validateHistoryLimit(_ limit: Int) throws(DomainError) {
        guard historyLimit.contains(limit) else {
            throw .invalidArgument("limit must be between \(historyLimit.lowerBound) and \(historyLimit.upperBound), not \(limit)")
        }
    }

    /// Throws ``DomainError/checkInTooSoon(retryAfter:)`` when `now` is within the cooldown of
    /// `last`.
    public static func validateCheckIn(at now: Date, last: Date?) throws(DomainError) {
        guard let last else { return }
        let elapsed = now.timeIntervalSince(last)
        if elapsed < cooldown {
            throw .checkInTooSoon(retryAfter: cooldown - max(0, elapsed))
        }
    }
}

/// Where a person stands: their last check-in, deadline and colour band at a moment.
public struct CheckInStatus: Hashable, Codable, Sendable {
    public var lastCheckIn: Date?
    public var interval: CheckInInterval

    public init(lastCheckIn: Date?, interval: CheckInInterval) {
        self.lastCheckIn = lastCheckIn
        self.interval = interval
    }

    /// `lastCheckIn + interval`; `nil` before the first check-in, when nothing is due yet.
    public var deadline: Date? { lastCheckIn?.addingTimeInterval(interval.seconds) }

    /// Seconds until the deadline (negative once passed), `nil` before the first check-in.
    public func timeRemaining(at now: Date) -> TimeInterval? {
        deadline.map { $0.timeIntervalSince(now) }
    }

    /// Whether the deadline has passed: the person is non-responsive.
    public func isExpired(at now: Date) -> Bool {
        guard let remaining = timeRemaining(at: now) else { return false }
        return remaining <= 0
    }

    /// The band at `now`. Before any check-in there is no deadline to miss, so the band is red:
    /// the person should check in to start the clock.
    public func band(at now: Date) -> ColorBand {
        guard let remaining = timeRemaining(at: now), remaining > 0 else { return .red }
        let fraction = remaining / interval.seconds
        if fraction > 0.5 { return .green }
        if fraction > 0.2 { return .yellow }
        return .orange
    }
}
