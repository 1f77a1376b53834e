import Foundation
import LifeSignalClients

extension SupabaseAdapters {
    /// SOS alerts through the alert functions (``FunctionCalling``).
    public var alertClient: AlertClient { functionAlertClient }

    /// Pings through the ping functions (``FunctionCalling``).
    public var pingClient: PingClient { functionPingClient }
}
