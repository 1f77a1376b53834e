import Foundation
import LifeSignalDomain

extension BackendFunctions {
    /// A person's channel choices, and the ledger for the service role.
    static let deliveryFunctions: [String: Handler] = [
        "get-delivery-preferences": { backend, caller, _ in
            try encode(DeliveryPreferencesResponse(success: true, preferences: try await backend.deliveries.preferences(caller: caller)))
        },
        "update-delivery-preferences": { backend, caller, body in
            let request = try decode(UpdateDeliveryPreferencesRequest.self, from: body)
            var choices: [DeliveryChannel: ChannelChoice] = [:]
            for (channel, value) in [(DeliveryChannel.push, request.push), (.sms, request.sms), (.email, request.email)] {
                guard let value else { continue }
                guard let choice = ChannelChoice(rawValue: value) else {
                    throw DomainError.invalidArgument("\(channel.rawValue) is all, urgent or off, not \"\(value)\"")
                }
                choices[channel] = choice
            }
            let stored = try await backend.deliveries.updatePreferences(
                caller: caller, push: choices[.push], sms: choices[.sms], email: choices[.email])
            return try encode(DeliveryPreferencesResponse(success: true, preferences: stored))
        },
        "list-deliveries": { backend, caller, body in
            let request = try decode(ListDeliveriesRequest.self, from: body)
            let status = try request.status.map { (name) throws(DomainError) -> DeliveryStatus in
                guard let status = DeliveryStatus(rawValue: name) else {
                    throw .invalidArgument("status is queued, sending, sent, delivered or failed, not \"\(name)\"")
                }
                return status
            }
            let channel = try request.channel.map { (name) throws(DomainError) -> DeliveryChannel in
                guard let channel = DeliveryChannel(rawValue: name) else { throw .invalidArgument("channel is push, sms or email, not \"\(name)\"") }
                return channel
            }
            let user = try request.userId.map { try userID($0, field: "userId") }
            let rows = try await backend.deliveries.list(caller: caller, status: status, channel: channel, user: user, limit: request.limit ?? 100)
            return try encode(ListDeliveriesResponse(success: true, deliveries: rows))
        },
    ]
}

public struct DeliveryPreferencesResponse: Codable, Sendable {
    public var success: Bool
    public var preferences: DeliveryPreferences
}

/// Each channel `all`, `urgent` or `off`; a channel left out keeps its choice.
public struct UpdateDeliveryPreferencesRequest: Codable, Sendable {
    public var push: String?
    public var sms: String?
    public var email: String?

    public init(push: String? = nil, sms: String? = nil, email: String? = nil) {
        self.push = push
        self.sms = sms
        self.email = email
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
}
