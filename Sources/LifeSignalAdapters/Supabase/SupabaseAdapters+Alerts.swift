import Foundation
import LifeSignalClients
import LifeSignalDomain

extension SupabaseAdapters {
    /// SOS alerts through the alert functions (``FunctionCalling``); the stream follows
    /// Realtime (``ownAlertChanges()``).
    public var alertClient: AlertClient { functionAlertClient }

    /// Pings through the ping functions (``FunctionCalling``), followed through the contact
    /// list's stream.
    public var pingClient: PingClient { functionPingClient }

    /// My active alert read again through `get-active-alert` after each Realtime change of my
    /// `alerts` rows or of `alert_responses` (unfiltered: it has no owner column, and my
    /// policies let through only responses to my alerts and my dependents', and my own).
    func ownAlertChanges() async throws -> AsyncThrowingStream<AlertRecord?, any Error> {
        let alerts = functionAlertClient
        return try await followed("alert", tables: ["alert_responses"], mine: ["alerts": "user_id"]) { try await alerts.activeAlert(nil) }
    }
}
