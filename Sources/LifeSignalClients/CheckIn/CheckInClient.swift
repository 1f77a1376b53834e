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
}

extension CheckInClient: TestDependencyKey {
    public static let testValue = CheckInClient()

    /// A person who checked in 3 hours ago on a 24-hour interval.
    public static let previewValue: CheckInClient = {
        let last = LockIsolated<Date?>(Date().addingTimeInterval(-3 * 3600))
        return CheckInClient(
            checkIn: {
                let now = Date()
                try CheckInRules.validateCheckIn(at: now, last: last.value)
                last.setValue(now)
                return CheckInResult(checkedInAt: now, deadline: now.addingTimeInterval(CheckInInterval.default.seconds))
            },
            status: { CheckInStatus(lastCheckIn: last.value, interval: .default) }
        )
    }()
}

extension DependencyValues {
    public var checkInClient: CheckInClient {
        get { self[CheckInClient.self] }
        set { self[CheckInClient.self] = newValue }
    }
}
