import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// Checking in and reading back where the signed-in person stands.
@DependencyClient
public struct CheckInClient: Sendable {
    /// Records a check-in now; refused with ``DomainError/checkInTooSoon(retryAfter:)`` within
    /// 5 minutes of the last one.
    public var checkIn: @Sendable () async throws -> CheckInResult
    /// The signed-in person's last check-in and interval.
    public var status: @Sendable () async throws -> CheckInStatus
    /// My interval and reminder lead.
    public var settings: @Sendable () async throws -> CheckInSettings
    /// Sets the interval and reminder lead (either may stay as is) and moves the deadline to
    /// last check-in + the new interval. A lead as long as the interval is refused.
    public var updateSettings: @Sendable (_ interval: CheckInInterval?, _ reminderLead: ReminderLead?) async throws -> CheckInSettings
    /// My check-ins, newest first, at most `limit` (1…500).
    public var history: @Sendable (_ limit: Int) async throws -> [CheckInEntry]
}

extension CheckInClient: TestDependencyKey {
    public static let testValue = CheckInClient()

    /// A person who checked in 3 hours ago on a 24-hour interval.
    /// Fresh on every read, so two previews (or two tests) never share a cooldown.
    public static var previewValue: CheckInClient {
        let last = LockIsolated<Date?>(Date().addingTimeInterval(-3 * 3600))
        let settings = LockIsolated(CheckInSettings())
        let entries = LockIsolated((1...5).map { day in
            CheckInEntry(id: UUID(), checkedInAt: Date().addingTimeInterval(-3 * 3600 - Double(day) * 86400), source: .manual)
        })
        return CheckInClient(
            checkIn: {
                let now = Date()
                try CheckInRules.validateCheckIn(at: now, last: last.value)
                last.setValue(now)
                entries.withValue { $0.insert(CheckInEntry(id: UUID(), checkedInAt: now, source: .manual), at: 0) }
                return CheckInResult(checkedInAt: now, deadline: now.addingTimeInterval(CheckInInterval.default.seconds))
            },
            status: { CheckInStatus(lastCheckIn: last.value, interval: settings.value.interval) },
            settings: { settings.value },
            updateSettings: { interval, lead in
                var next = settings.value
                if let interval { next.interval = interval }
                if let lead { next.reminderLead = lead }
                try next.validate()
                let saved = next
                settings.setValue(saved)
                return saved
            },
            history: { limit in Array(entries.value.prefix(limit)) }
        )
    }
}

extension DependencyValues {
    public var checkInClient: CheckInClient {
        get { self[CheckInClient.self] }
        set { self[CheckInClient.self] = newValue }
    }
}
