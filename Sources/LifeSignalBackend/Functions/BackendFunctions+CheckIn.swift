import Foundation
import LifeSignalDomain

extension BackendFunctions {
    /// `check-in` and the escalation settings around it (`BackendFunctions+Escalation.swift`).
    static let checkInFunctions: [String: Handler] = escalationFunctions.merging(checkInOnly) { first, _ in first }

    static let checkInOnly: [String: Handler] = [
        "check-in": { backend, caller, body in
            let request = try decode(CheckInRequest.self, from: body)
            let result = try await backend.checkIns.checkIn(caller: caller, source: request.source ?? .manual)
            let status = try await backend.checkIns.status(caller: caller)
            return try encode(CheckInResponse(
                success: true, lastCheckInTime: Timestamp.format(result.checkedInAt),
                nextCheckInTime: Timestamp.format(result.deadline), checkInInterval: Int(status.interval.seconds)))
        },
    ]
}

/// `check-in` request: optional source (manual by default).
public struct CheckInRequest: Codable, Sendable {
    public var source: CheckInService.Source?
    public init(source: CheckInService.Source? = nil) { self.source = source }
}

/// `check-in` reply, after seed `001_…`'s process-check-in.
public struct CheckInResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var lastCheckInTime: String
    public var nextCheckInTime: String
    public var checkInInterval: Int
}
