import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// A person's channel choices, and the ledger for the service role.
    static let deliveryFunctions: [Registration] = [
        handle(CloudFunctions.getDeliveryPreferences) { backend, caller, _ in
            DeliveryPreferencesResponse(success: true, preferences: try await backend.deliveries.preferences(caller: caller))
        },
        handle(CloudFunctions.updateDeliveryPreferences) { backend, caller, request in
            var choices: [DeliveryChannel: ChannelChoice] = [:]
            for (channel, value) in [(DeliveryChannel.push, request.push), (.sms, request.sms), (.email, request.email), (.voice, request.voice)] {
                guard let value else { continue }
                guard let choice = ChannelChoice(rawValue: value) else {
                    throw DomainError.invalidArgument("\(channel.rawValue) is all, urgent or off, not \"\(value)\"")
                }
                choices[channel] = choice
            }
            let fallback = try request.fallback.map { names in
                try names.map { (name) throws(DomainError) -> DeliveryChannel in
                    guard let channel = DeliveryChannel(rawValue: name) else {
                        throw .invalidArgument("fallback names push, sms, email or voice, not \"\(name.prefix(40))\"")
                    }
                    return channel
                }
            }
            let stored = try await backend.deliveries.updatePreferences(
                caller: caller, push: choices[.push], sms: choices[.sms], email: choices[.email], voice: choices[.voice], fallback: fallback)
            return DeliveryPreferencesResponse(success: true, preferences: stored)
        },
        handle(CloudFunctions.listDeliveries) { backend, caller, request in
            let status = try request.status.map { (name) throws(DomainError) -> DeliveryStatus in
                guard let status = DeliveryStatus(rawValue: name) else {
                    throw .invalidArgument("status is queued, sending, sent, delivered or failed, not \"\(name)\"")
                }
                return status
            }
            let channel = try request.channel.map { (name) throws(DomainError) -> DeliveryChannel in
                guard let channel = DeliveryChannel(rawValue: name) else { throw .invalidArgument("channel is push, sms, email or voice, not \"\(name)\"") }
                return channel
            }
            let user = try request.userId.map { try WireField.userID($0, field: "userId") }
            let rows = try await backend.deliveries.list(caller: caller, status: status, channel: channel, user: user, limit: request.limit ?? 100)
            return ListDeliveriesResponse(success: true, deliveries: rows)
        },
    ]
}
