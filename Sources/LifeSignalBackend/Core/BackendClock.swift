import Foundation
import Synchronization

/// Where every rule reads the time: the system clock in production, a clock the test or the
/// demo moves by hand everywhere else, so a 24-hour deadline passes in microseconds.
public struct BackendClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    public static let system = BackendClock { Date() }

    /// A clock that stands still until ``ManualClock/advance(by:)`` moves it.
    public static func manual(_ clock: ManualClock) -> BackendClock {
        BackendClock { clock.now }
    }
}

/// A hand-driven clock shared by a test (or the demo) and the backend it drives.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Mutex(start) }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) { current.withLock { $0 = date } }
}
