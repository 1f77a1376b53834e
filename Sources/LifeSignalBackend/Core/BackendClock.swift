import Foundation

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
public final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    public var now: Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) { lock.withLock { current = date } }
}
