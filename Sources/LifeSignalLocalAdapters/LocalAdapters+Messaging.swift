import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// This device's messaging on the embedded backend, as a new device (see
    /// ``messagingClient(device:)``).
    public var messagingClient: MessagingClient { messagingClient(device: MessagingDevice()) }

    /// Messaging for `device`: its token is registered through the notification service, and
    /// its message stream wakes on the backend's change feed (each `device_messages` insert of
    /// the device's owner) and reads the inbox after its cursor.
    public func messagingClient(device: MessagingDevice) -> MessagingClient {
        let adapters = self
        let backend = self.backend
        return MessagingRoute(
            me: { try await adapters.caller().requireUser() },
            register: { token in try await backend.notifications.registerPushToken(caller: try await adapters.caller(), token: token, platform: .fcm) },
            unregister: { token in try await backend.messaging.unregister(caller: try await adapters.caller(), token: token) },
            subscribe: { token, topic in try await backend.messaging.subscribe(caller: try await adapters.caller(), token: token, topic: topic) },
            unsubscribe: { token, topic in try await backend.messaging.unsubscribe(caller: try await adapters.caller(), token: token, topic: topic) },
            inbox: { token, after in
                try await backend.messaging.messages(caller: try await adapters.caller(), token: token, after: after, limit: MessagingRoute.pageSize)
            },
            news: { device in
                // Subscribed now, before the stream's first read, so no insert falls between.
                let events = backend.changes.subscribe(ChangeFeed.Filter(table: "device_messages"))
                return AsyncStream { continuation in
                    let task = Task {
                        for await event in events where event.ownerID == device.owner { continuation.yield() }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            }
        ).client(device: device)
    }
}
