import Foundation

/// What one sweep did.
public struct SweepReport: Sendable, Hashable, Codable {
    /// People reminded that their deadline is near.
    public var reminders = 0
    /// People whose deadline passed and whose responders were told.
    public var escalations = 0
    /// People who checked in again after an escalation, whose responders were told.
    public var resumed = 0
    /// People told at their deadline that their responders will be told when the grace
    /// period ends.
    public var graceNotices = 0
    /// Incidents whose next tier of responders was told.
    public var tiersAdvanced = 0
    /// Incidents whose person and current tier were reminded again (nobody acknowledged).
    public var repeats = 0
    /// Notification rows written.
    public var notifications = 0
    public var deletedPings = 0
    public var deletedNotifications = 0
    /// Sign-in bookkeeping past its use: throttle counts, expired codes, ended sessions and
    /// old revoked refresh tokens (`AuthService.pruneExpired(now:batch:)`).
    public var deletedSignInRows = 0

    public init() {}
}
