import Foundation
import LifeSignalClients

extension FirebaseAdapters {
    /// This device's messaging through callables (seed `002_…`'s `FirebaseMessagingAdapter`),
    /// as a new device (see ``messagingClient(device:)``).
    public var messagingClient: MessagingClient { messagingClient(device: MessagingDevice()) }

    /// Messaging for `device`: the token is made here and registered with the backend (the
    /// app has no FCM SDK on Linux; the backend sends through FCM HTTP v1 when configured),
    /// and the message stream polls the inbox every ``pollInterval``, as Firebase's other
    /// streams do.
    public func messagingClient(device: MessagingDevice) -> MessagingClient {
        functionMessagingClient(device: device, pollInterval: pollInterval)
    }
}
