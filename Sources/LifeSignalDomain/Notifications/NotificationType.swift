/// What a notification is about.
///
/// The first seventeen are the types of the original app's notification history; the next two
/// are server-side check-in notices (the sweep's reminder, and the all-clear after a missed
/// check-in) that the original left to local notifications; the last four came with tiered
/// escalation (migration 240 lets the database take them).
public enum NotificationType: String, Hashable, Codable, Sendable, CaseIterable {
    case alertActivatedSent = "alert_activated_sent"
    case alertActivatedReceived = "alert_activated_received"
    case alertCancelledSent = "alert_cancelled_sent"
    case alertCancelledReceived = "alert_cancelled_received"
    case nonResponsiveSelf = "non_responsive_self"
    case nonResponsiveDependent = "non_responsive_dependent"
    case contactAdded = "contact_added"
    case contactRemoved = "contact_removed"
    case contactRoleChanged = "contact_role_changed"
    case pingSent = "ping_sent"
    case pingReceived = "ping_received"
    case pingCancelled = "ping_cancelled"
    case pingResponded = "ping_responded"
    case pingClearAll = "ping_clear_all"
    case system = "system"
    case systemSuccess = "system_success"
    case systemError = "system_error"
    case checkInReminder = "check_in_reminder"
    case checkInResumed = "check_in_resumed"
    /// Someone tapped "I'm on it": to the person and every responder told of the incident, and
    /// to a later tier when its turn comes (issue 19's escalation).
    case alertAcknowledged = "alert_acknowledged"
    /// A responder confirmed the person is safe: the all-clear to everyone told, and the person.
    case markedSafe = "marked_safe"
    /// The person paused check-ins until a time, or resumed them: to their responders.
    case checkInsPaused = "check_ins_paused"
    case checkInsUnpaused = "check_ins_unpaused"
    /// "This is a test": the person checks that each responder can be reached (issue 34).
    case testAlert = "test_alert"

    /// The history sheet's filter a type falls under.
    public var category: NotificationCategory {
        switch self {
        case .alertActivatedSent, .alertActivatedReceived, .alertCancelledSent, .alertCancelledReceived,
            .nonResponsiveSelf, .nonResponsiveDependent, .alertAcknowledged, .markedSafe:
            .alerts
        case .pingSent, .pingReceived, .pingCancelled, .pingResponded, .pingClearAll: .pings
        case .contactRoleChanged: .roles
        case .contactRemoved: .removed
        case .contactAdded: .added
        case .checkInReminder, .checkInResumed, .checkInsPaused, .checkInsUnpaused: .checkIns
        case .system, .systemSuccess, .systemError, .testAlert: .system
        }
    }
}

/// The filters of the notification history (besides "all").
public enum NotificationCategory: String, Hashable, Codable, Sendable, CaseIterable {
    case alerts, pings, roles, removed, added
    case checkIns = "check_ins"
    case system
}

/// How long the server keeps things that only matter for a while.
public enum Retention {
    /// Answered or cleared pings are deleted this long after they ended.
    public static let pings: Double = 24 * 60 * 60
    /// Notifications are deleted this long after they were created, read or not.
    public static let notifications: Double = 7 * 24 * 60 * 60
}
