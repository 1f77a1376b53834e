import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// Notifications on the embedded backend; the stream follows the backend's change feed,
    /// and pushes go through its notification service, so they are stored and pushed alike.
    public var notificationClient: NotificationClient {
        let notifications = backend.notifications
        let changes = backend.changes
        let deliveries = backend.deliveries
        return NotificationClient(
            notifications: { try await notifications.notifications(caller: try await caller()) },
            markRead: { try await notifications.markRead(caller: try await caller(), ids: $0) },
            clear: { try await notifications.clear(caller: try await caller(), types: $0) },
            stream: {
                let caller = try await caller()
                let me = try caller.requireUser()
                // Subscribed before returning, so nothing committed after this is missed.
                let events = changes.subscribe(ChangeFeed.Filter(table: "notifications", ownerID: me))
                return AsyncThrowingStream { continuation in
                    let task = Task {
                        for await event in events where event.kind == .insert {
                            let recent = try await notifications.notifications(caller: caller)
                            if let record = recent.first(where: { $0.id.uuidString.lowercased() == event.rowID }) {
                                continuation.yield(record)
                            }
                        }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            },
            registerPushToken: { token, name in
                guard let platform = NotificationService.Platform(rawValue: name) else {
                    throw DomainError.invalidArgument("platform is fcm, apns or web, not \"\(name)\"")
                }
                try await notifications.registerPushToken(caller: try await caller(), token: token, platform: platform)
            },
            sendPush: { contact, title, body in
                try await notifications.send(caller: try await caller(), to: contact, title: title, body: body).id
            },
            deliveryPreferences: { try await deliveries.preferences(caller: try await caller()) },
            updateDeliveryPreferences: { push, sms, email, voice in
                // As `update-delivery-preferences` does: the channels left out keep their choice.
                try await deliveries.updatePreferences(caller: try await caller(), push: push, sms: sms, email: email, voice: voice)
            },
            updateFallbackOrder: { try await deliveries.updatePreferences(caller: try await caller(), fallback: $0) })
    }
}
