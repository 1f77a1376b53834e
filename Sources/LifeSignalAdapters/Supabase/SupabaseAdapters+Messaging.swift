import Foundation
import LifeSignalClients

extension SupabaseAdapters {
    /// This device's messaging over Supabase Functions, as a new device polling its inbox
    /// every 3 s (see ``messagingClient(device:pollInterval:)``).
    public var messagingClient: MessagingClient { messagingClient(device: MessagingDevice()) }

    /// Messaging for `device` through the messaging functions; the message stream asks for
    /// the inbox every `pollInterval` (why it polls: `FunctionCalling.functionMessagingClient`).
    /// Each poll is a request against the person's rate limit (100 a minute), so the default,
    /// 3 s as Firebase's streams, spends a fifth of it on one open stream.
    public func messagingClient(device: MessagingDevice, pollInterval: Duration = .seconds(3)) -> MessagingClient {
        functionMessagingClient(device: device, pollInterval: pollInterval)
    }
}
