import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// The person's escalation settings, their responders' tiers and the pause. Every reply is
    /// ``EscalationSettingsResponse``.
    static let escalationFunctions: [Registration] = [
        handle(CloudFunctions.getEscalationSettings) { backend, caller, _ in
            EscalationSettingsResponse(try await backend.checkIns.escalation(caller: caller))
        },
        handle(CloudFunctions.updateEscalationSettings) { backend, caller, request in
            return EscalationSettingsResponse(
                try await backend.checkIns.updateEscalation(
                    caller: caller, graceSeconds: request.graceSeconds, tierDelaySeconds: request.tierDelaySeconds,
                    repeatSeconds: request.repeatSeconds))
        },
        handle(CloudFunctions.updateContactTier) { backend, caller, request in
            try EscalationSettings.validate(tier: request.tier)
            let responder = try WireField.userID(request.contactId, field: "contactId")
            return EscalationSettingsResponse(try await backend.checkIns.updateTier(caller: caller, responder: responder, tier: request.tier))
        },
        handle(CloudFunctions.pauseCheckIns) { backend, caller, request in
            guard request.until.count <= 40, let until = Timestamp.parse(request.until) else {
                throw DomainError.invalidArgument("until must be an ISO 8601 time, not \"\(request.until.prefix(40))\"")
            }
            return EscalationSettingsResponse(try await backend.checkIns.pause(caller: caller, until: until))
        },
        handle(CloudFunctions.resumeCheckIns) { backend, caller, _ in
            EscalationSettingsResponse(try await backend.checkIns.resume(caller: caller))
        },
    ]
}
