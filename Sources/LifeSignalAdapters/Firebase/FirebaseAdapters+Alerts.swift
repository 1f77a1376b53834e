import Foundation
import LifeSignalClients

extension FirebaseAdapters {
    /// SOS alerts through the alert functions, called as Firebase callables (``FunctionCalling``).
    public var alertClient: AlertClient { functionAlertClient }

    /// Pings through the ping functions, called as Firebase callables (``FunctionCalling``).
    public var pingClient: PingClient { functionPingClient }
}
