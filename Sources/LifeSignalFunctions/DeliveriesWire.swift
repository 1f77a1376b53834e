import Foundation
import LifeSignalDomain

public struct DeliveryPreferencesResponse: Codable, Sendable {
    public var success: Bool
    public var preferences: DeliveryPreferences

    public init(success: Bool, preferences: DeliveryPreferences) {
        self.success = success
        self.preferences = preferences
    }
}

/// Each channel `all`, `urgent` or `off`; a channel left out keeps its choice.
public struct UpdateDeliveryPreferencesRequest: Codable, Sendable {
    public var push: String?
    public var sms: String?
    public var email: String?
    public var voice: String?
    /// Channel names in the order alerts try them (`[]`: all at once); absent keeps it.
    public var fallback: [String]?

    public init(push: String? = nil, sms: String? = nil, email: String? = nil, voice: String? = nil, fallback: [String]? = nil) {
        self.push = push
        self.sms = sms
        self.email = email
        self.voice = voice
        self.fallback = fallback
    }
}

public struct ListDeliveriesRequest: Codable, Sendable {
    public var status: String?
    public var channel: String?
    public var userId: String?
    /// 1…1,000 (default 100).
    public var limit: Int?

    public init(status: String? = nil, channel: String? = nil, userId: String? = nil, limit: Int? = nil) {
        self.status = status
        self.channel = channel
        self.userId = userId
        self.limit = limit
    }
}

public struct ListDeliveriesResponse: Codable, Sendable {
    public var success: Bool
    public var deliveries: [DeliveryRecord]

    public init(success: Bool, deliveries: [DeliveryRecord]) {
        self.success = success
        self.deliveries = deliveries
    }
}
