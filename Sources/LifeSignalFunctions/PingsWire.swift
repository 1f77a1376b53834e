import Foundation
import LifeSignalDomain

/// `ping-dependent` and `clear-ping`: the dependent's user id.
public struct DependentRequest: Codable, Sendable {
    public var dependentId: String
    public init(dependentId: String) { self.dependentId = dependentId }
}

public struct PingDependentResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var pingId: String
    public init(success: Bool, pingId: String) {
        self.success = success
        self.pingId = pingId
    }
}

/// `respond-to-ping`: the user id of the responder whose ping is answered.
public struct RespondToPingRequest: Codable, Sendable {
    public var responderId: String
    public init(responderId: String) { self.responderId = responderId }
}

public struct RespondToAllPingsResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var respondedCount: Int
    public init(success: Bool, respondedCount: Int) {
        self.success = success
        self.respondedCount = respondedCount
    }
}
