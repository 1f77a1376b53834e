import Foundation

/// How often a person checks in and how early they are reminded.
public struct CheckInSettings: Hashable, Codable, Sendable {
    public var interval: CheckInInterval
    public var reminderLead: ReminderLead

    public init(interval: CheckInInterval = .default, reminderLead: ReminderLead = .default) {
        self.interval = interval
        self.reminderLead = reminderLead
    }

    /// A reminder must come before the start of the interval it belongs to.
    public func validate() throws(DomainError) {
        if let lead = reminderLead.seconds, lead >= interval.seconds {
            throw .invalidArgument("The reminder must come less than one interval before the deadline")
        }
    }
}

/// Who or what recorded a check-in.
public enum CheckInSource: String, Hashable, Codable, Sendable, CaseIterable {
    case manual
    case automatic
    case responderInitiated = "responder_initiated"
}

/// One past check-in, for the history list.
public struct CheckInEntry: Hashable, Codable, Sendable, Identifiable {
    public var id: UUID
    public var checkedInAt: Date
    public var source: CheckInSource

    public init(id: UUID, checkedInAt: Date, source: CheckInSource) {
        self.id = id
        self.checkedInAt = checkedInAt
        self.source = source
    }
}
