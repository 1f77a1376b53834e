import Foundation
import LifeSignalDomain

/// `check-in` request: optional source (manual by default), idempotency key (a check-in
/// sent again with the same key counts once) and PIN (needed once the person has set one).
public struct CheckInRequest: Codable, Sendable {
    public var source: CheckInSource?
    public var idempotencyKey: String?
    public var pin: String?
    public init(source: CheckInSource? = nil, idempotencyKey: String? = nil, pin: String? = nil) {
        self.source = source
        self.idempotencyKey = idempotencyKey
        self.pin = pin
    }
}

/// `check-in` reply, after seed `001_…`'s process-check-in.
public struct CheckInResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var lastCheckInTime: String
    public var nextCheckInTime: String
    public var checkInInterval: Int

    public init(_ result: CheckInResult) {
        success = true
        lastCheckInTime = Timestamp.format(result.checkedInAt)
        nextCheckInTime = Timestamp.format(result.deadline)
        checkInInterval = Int(result.interval.seconds)
    }

    /// The result the reply describes.
    ///
    /// - Throws: ``DomainError/internal(_:)`` when a time or the interval does not parse: the
    ///   server broke the contract.
    public func result() throws(DomainError) -> CheckInResult {
        guard let checkedInAt = Timestamp.parse(lastCheckInTime), let deadline = Timestamp.parse(nextCheckInTime) else {
            throw .internal("check-in replied with times that do not parse: \(lastCheckInTime.prefix(40)), \(nextCheckInTime.prefix(40))")
        }
        let interval: CheckInInterval
        do { interval = try CheckInInterval(seconds: TimeInterval(checkInInterval)) } catch {
            throw .internal("check-in replied with an interval out of range: \(checkInInterval)")
        }
        return CheckInResult(checkedInAt: checkedInAt, deadline: deadline, interval: interval)
    }
}
