import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

/// The escalation functions and a person's channel choices, over either wire: each call's
/// reply is the whole state, so the clients return what the server settled on.
extension FunctionCalling {
    /// `get-escalation-settings`.
    func escalation() async throws -> CheckInEscalation {
        let reply: EscalationSettingsResponse = try await call(CloudFunctions.getEscalationSettings)
        return try CheckInEscalation(wire: reply)
    }

    /// `update-escalation-settings`: the settings given; `repeatSeconds` 0 turns repeats off.
    func updateEscalation(graceSeconds: Int?, tierDelaySeconds: Int?, repeatSeconds: Int?) async throws -> CheckInEscalation {
        let reply: EscalationSettingsResponse = try await call(
            CloudFunctions.updateEscalationSettings,
            UpdateEscalationSettingsRequest(
                graceSeconds: graceSeconds, tierDelaySeconds: tierDelaySeconds, repeatSeconds: repeatSeconds))
        return try CheckInEscalation(wire: reply)
    }

    /// `update-contact-tier`.
    func setResponderTier(_ responder: UserID, tier: Int) async throws -> CheckInEscalation {
        let reply: EscalationSettingsResponse = try await call(
            CloudFunctions.updateContactTier, UpdateContactTierRequest(contactId: responder.description, tier: tier))
        return try CheckInEscalation(wire: reply)
    }

    /// `pause-check-ins` until `until` (sent to the microsecond, as the server keeps times).
    func pauseCheckIns(until: Date) async throws -> CheckInEscalation {
        let reply: EscalationSettingsResponse = try await call(CloudFunctions.pauseCheckIns, PauseCheckInsRequest(until: Timestamp.format(until)))
        return try CheckInEscalation(wire: reply)
    }

    /// `resume-check-ins`.
    func resumeCheckIns() async throws -> CheckInEscalation {
        let reply: EscalationSettingsResponse = try await call(CloudFunctions.resumeCheckIns)
        return try CheckInEscalation(wire: reply)
    }

    /// `get-delivery-preferences`.
    func deliveryPreferences() async throws -> DeliveryPreferences {
        let reply: DeliveryPreferencesResponse = try await call(CloudFunctions.getDeliveryPreferences)
        return reply.preferences
    }

    /// `update-delivery-preferences` with only the fallback order.
    func updateFallbackOrder(_ order: [DeliveryChannel]) async throws -> DeliveryPreferences {
        let reply: DeliveryPreferencesResponse = try await call(
            CloudFunctions.updateDeliveryPreferences, UpdateDeliveryPreferencesRequest(fallback: order.map(\.rawValue)))
        return reply.preferences
    }

    /// `update-delivery-preferences`: only the channels given change.
    func updateDeliveryPreferences(push: ChannelChoice?, sms: ChannelChoice?, email: ChannelChoice?, voice: ChannelChoice?) async throws -> DeliveryPreferences
    {
        let reply: DeliveryPreferencesResponse = try await call(
            CloudFunctions.updateDeliveryPreferences,
            UpdateDeliveryPreferencesRequest(
                push: push?.rawValue, sms: sms?.rawValue, email: email?.rawValue, voice: voice?.rawValue))
        return reply.preferences
    }
}

extension CheckInEscalation {
    /// The escalation functions' reply; a repeat of 0 on the wire is "no repeats".
    init(wire reply: EscalationSettingsResponse) throws {
        self.init(
            settings: EscalationSettings(
                graceSeconds: reply.graceSeconds, tierDelaySeconds: reply.tierDelaySeconds,
                repeatSeconds: reply.repeatSeconds == 0 ? nil : reply.repeatSeconds),
            pausedUntil: try WireParse.date(reply.pausedUntil), deadline: try WireParse.date(reply.nextCheckInTime),
            responders: try reply.responders.map { Responder(id: try WireParse.userID($0.contactId), name: $0.name, tier: $0.tier) })
    }
}
