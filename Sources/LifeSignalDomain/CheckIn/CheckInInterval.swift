import Foundation

/// How long a person may go between check-ins before their responders are alerted.
public struct CheckInInterval: Hashable, Codable, Sendable, Comparable {
    public let seconds: TimeInterval

    public static let minimum: TimeInterval = 60 * 60
    public static let maximum: TimeInterval = 7 * 24 * 60 * 60
    public static let `default` = CheckInInterval(uncheckedSeconds: 24 * 60 * 60)

    public init(seconds: TimeInterval) throws(DomainError) {
        guard seconds.isFinite, (Self.minimum...Self.maximum).contains(seconds) else {
            throw .invalidArgument("The check-in interval must be between 1 hour and 7 days, not \(seconds) s")
        }
        self.seconds = seconds
    }

    /// The interval a request's `field` gives in seconds, refused with the field and the
    /// allowed range named; any `Double` may arrive (`1e300`, `-0`), none of them traps.
    public static func seconds(_ seconds: Double, field: String) throws(DomainError) -> CheckInInterval {
        guard seconds.isFinite, (minimum...maximum).contains(seconds) else {
            throw .invalidArgument("\(field) must be between 1 hour and 7 days (\(Int(minimum)) to \(Int(maximum)) seconds), not \(seconds)")
        }
        return CheckInInterval(uncheckedSeconds: seconds)
    }

    public static func hours(_ hours: Double) throws(DomainError) -> CheckInInterval {
        try CheckInInterval(seconds: hours * 3600)
    }

    /// The nearest allowed interval: for values read back from storage, which the database
    /// already constrains, so a stray value shows as the nearest bound instead of failing a read.
    public init(clamping seconds: TimeInterval) {
        self.seconds = seconds.isFinite ? min(max(seconds, Self.minimum), Self.maximum) : Self.default.seconds
    }

    private init(uncheckedSeconds: TimeInterval) { self.seconds = uncheckedSeconds }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.seconds < rhs.seconds }

    public init(from decoder: any Decoder) throws {
        let seconds = try decoder.singleValueContainer().decode(Double.self)
        do { try self.init(seconds: seconds) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Int(seconds))
    }
}

/// When, before a deadline, a person is reminded to check in.
public enum ReminderLead: String, Hashable, Codable, Sendable, CaseIterable {
    case none
    case thirtyMinutes = "30_minutes"
    case twoHours = "2_hours"

    public static let `default` = ReminderLead.thirtyMinutes

    /// Seconds before the deadline, or `nil` when no reminder is wanted.
    public var seconds: TimeInterval? {
        switch self {
        case .none: nil
        case .thirtyMinutes: 30 * 60
        case .twoHours: 2 * 60 * 60
        }
    }

    public init(seconds: TimeInterval?) throws(DomainError) {
        switch seconds {
        case nil, 0?: self = .none
        case 1800?: self = .thirtyMinutes
        case 7200?: self = .twoHours
        case let other?: throw .invalidArgument("A reminder comes 30 minutes or 2 hours before the deadline, not \(other) s")
        }
    }
}
