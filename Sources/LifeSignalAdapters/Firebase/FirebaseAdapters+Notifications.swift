import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseAdapters {
    /// Notifications listed through `get-notifications`, changed through
    /// `mark-notifications-read` and `clear-notifications`; the stream polls the list and
    /// yields each id it has not seen, oldest first.
    public var notificationClient: NotificationClient {
        let adapters = self
        return NotificationClient(
            notifications: { try await adapters.notifications() },
            markRead: { try await adapters.markNotificationsRead($0) },
            clear: { try await adapters.clearNotifications($0) },
            stream: {
                let seen = Set(try await adapters.notifications().map(\.id))
                return adapters.polling(from: seen) { seen in
                    let listed = try await adapters.notifications()
                    // The list holds the newest only, so forgetting ids that left it cannot
                    // bring them back as new.
                    return (Set(listed.map(\.id)), listed.filter { !seen.contains($0.id) }.reversed())
                }
            },
            registerPushToken: { try await adapters.registerPushToken($0, platform: $1) },
            sendPush: { try await adapters.sendPush(to: $0, title: $1, body: $2) },
            deliveryPreferences: { try await adapters.deliveryPreferences() },
            updateDeliveryPreferences: { try await adapters.updateDeliveryPreferences(push: $0, sms: $1, email: $2, voice: $3) },
            updateFallbackOrder: { try await adapters.updateFallbackOrder($0) })
    }

    /// My newest notifications, newest first.
    func notifications() async throws -> [NotificationRecord] {
        let reply: GetNotificationsResponse = try await call(CloudFunctions.getNotifications, GetNotificationsRequest(limit: 100))
        // A type this app does not know yet (a newer server's) is skipped, not an error.
        return try reply.notifications.compactMap(NotificationRecord.init(wire:))
    }
}

extension NotificationRecord {
    /// `nil` for a notification type this app does not know.
    init?(wire: NotificationResponse) throws {
        guard let type = NotificationType(rawValue: wire.type) else { return nil }
        self.init(
            id: try WireParse.uuid(wire.id), userID: try WireParse.userID(wire.userId), type: type, title: wire.title, body: wire.body,
            contactID: try wire.contactId.map(WireParse.userID), isRead: wire.isRead, createdAt: try WireParse.date(wire.createdAt))
    }
}
