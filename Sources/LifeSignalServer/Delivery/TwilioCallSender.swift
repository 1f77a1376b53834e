import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain

/// Notifications as phone calls through Twilio: the call is placed here; what it says comes
/// from `POST /hooks/twilio/voice/<row>` when it is answered (``TwilioVoiceRoutes``), and how
/// it ended from `…/status`. The ledger row's id names the call in both, so a retried row
/// names the same script.
public struct TwilioCallSender: ChannelSender {
    let client: TwilioClient
    /// The number calls come from (a number of the account's, able to call).
    let from: String
    /// Where Twilio reaches this server.
    let publicURL: URL

    public init(client: TwilioClient, from: String, publicURL: URL) {
        self.client = client
        self.from = from
        self.publicURL = publicURL
    }

    public func send(_ message: OutboundMessage) async -> DeliveryOutcome {
        let call = TwilioVoiceRoutes<LifeSignalRequestContext>.path(for: message.id)
        do {
            let receipt = try await client.call(
                to: message.address, from: from, script: publicURL.appendingPathComponent(call),
                statusCallback: publicURL.appendingPathComponent(call + "/status"))
            return .sent(providerMessageID: receipt.sid)
        } catch let error as SMSError {
            if error.isUnreachableNumber { return .permanent(error.description) }
            return error.isTransient ? .transient(error.description) : .permanent(error.description)
        } catch {
            return .transient("\(error)")
        }
    }
}
