import Foundation
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// SOS alerts through the alert functions, called as Firebase callables (``FunctionCalling``);
    /// the stream polls my active alert (``ownAlertChanges()``).
    public var alertClient: AlertClient { functionAlertClient }

    /// Pings through the ping functions, called as Firebase callables (``FunctionCalling``),
    /// followed through the contact list's stream.
    public var pingClient: PingClient { functionPingClient }

    /// `get-active-alert` asked again every ``pollInterval``; my alert is delivered when it
    /// differs from the last answer (`nil` once it is cancelled).
    func ownAlertChanges() async throws -> AsyncThrowingStream<AlertRecord?, any Error> {
        let alerts = functionAlertClient
        let current = try await alerts.activeAlert(nil)
        return polling(from: current) { last in
            let alert = try await alerts.activeAlert(nil)
            return (alert, alert == last ? [] : [alert])
        }
    }
}
