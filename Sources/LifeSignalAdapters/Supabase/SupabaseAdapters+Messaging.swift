import Foundation
import LifeSignalClients

extension SupabaseAdapters {
    /// This device's messaging over Supabase Functions, as a new device polling its inbox
    /// every second (see ``messagingClient(device:pollInterval:)``).
    public var messagingClient: MessagingClient { messagingClient(device: MessagingDevice()) }

    /// Messaging for `device` through the messaging functions; the message stream asks for
    /// the inbox every `pollInterval` (why it polls: `FunctionCalling.functionMessagingClient`).
    public func messagingClient(device: MessagingDevice, pollInterval: Duration = .seconds(1)) -> MessagingClient {
        functionMessagingClient(device: device, pollInterval: pollInterval)
    }
}
