import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FunctionCalling {
    /// Check-ins through `check-in` and `update-check-in-settings`, and escalation through its
    /// functions; status and settings are read off the profile. Only the history is read each
    /// adapter's own way (`history`).
    func functionCheckInClient(history: @escaping @Sendable (_ limit: Int) async throws -> [CheckInEntry]) -> CheckInClient {
        let adapters = self
        return CheckInClient(
            // The reply carries the status the screen shows: nothing is read again.
            checkIn: { try await adapters.call(CloudFunctions.checkIn, CheckInRequest()).result() },
            status: { try await adapters.ownProfile().checkInStatus },
            settings: { try await adapters.ownProfile().settings },
            updateSettings: { interval, lead in
                let reply = try await adapters.call(
                    CloudFunctions.updateCheckInSettings,
                    UpdateCheckInSettingsRequest(
                        checkInInterval: interval?.seconds, reminderLead: lead?.rawValue))
                return try UserProfile(wire: reply).settings
            },
            history: history,
            escalation: { try await adapters.escalation() },
            updateEscalation: { try await adapters.updateEscalation(graceSeconds: $0, tierDelaySeconds: $1, repeatSeconds: $2) },
            setResponderTier: { try await adapters.setResponderTier($0, tier: $1) },
            pause: { try await adapters.pauseCheckIns(until: $0) },
            resume: { try await adapters.resumeCheckIns() },
            checkInWithPIN: { try await adapters.call(CloudFunctions.checkIn, CheckInRequest(pin: $0)).result() },
            pinSettings: { try await adapters.call(CloudFunctions.getCheckInPINs).settings },
            setPINs: { try await adapters.call(CloudFunctions.setCheckInPINs, SetCheckInPINsRequest(pin: $0, duressPin: $1)).settings })
    }
}
