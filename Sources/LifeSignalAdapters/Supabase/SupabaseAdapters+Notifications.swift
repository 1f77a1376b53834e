import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST

extension SupabaseAdapters {
    /// Notifications: read through PostgREST (the table's policy shows each person their own),
    /// changed through `mark-notifications-read` and `clear-notifications`, streamed through
    /// Realtime INSERTs filtered to my id.
    public var notificationClient: NotificationClient {
        let adapters = self
        let client = self.client
        return NotificationClient(
            notifications: {
                try await Self.mapped {
                    let me = try await client.auth.session.user.id
                    let rows: [KnownNotification] = try await client.from("notifications").select()
                        .eq("user_id", value: me.uuidString.lowercased())
                        .order("created_at", ascending: false).order("id").limit(100)
                        .execute().value
                    return rows.compactMap(\.record)
                }
            },
            markRead: { try await adapters.markNotificationsRead($0) },
            clear: { try await adapters.clearNotifications($0) },
            stream: {
                try await Self.mapped {
                    let me = try await client.auth.session.user.id.uuidString.lowercased()
                    let channel = client.channel("notifications-\(me)")
                    let inserts = channel.postgresChange(InsertAction.self, table: "notifications", filter: "user_id=eq.\(me)")
                    try await channel.subscribeWithError()
                    return AsyncThrowingStream { continuation in
                        let task = Task {
                            for await insert in inserts {
                                do {
                                    let known = try insert.decodeRecord(as: KnownNotification.self, decoder: SupabaseJSON.makeDecoder())
                                    if let record = known.record { continuation.yield(record) }
                                } catch {
                                    continuation.finish(throwing: DomainError.internal("A notification did not decode: \(error)"))
                                    return
                                }
                            }
                            continuation.finish()
                        }
                        continuation.onTermination = { _ in
                            task.cancel()
                            Task { await client.realtimeV2.removeChannel(channel) }
                        }
                    }
                }
            },
            registerPushToken: { try await adapters.registerPushToken($0, platform: $1) },
            sendPush: { try await adapters.sendPush(to: $0, title: $1, body: $2) },
            deliveryPreferences: { try await adapters.deliveryPreferences() },
            updateDeliveryPreferences: { try await adapters.updateDeliveryPreferences(push: $0, sms: $1, email: $2, voice: $3) },
            updateFallbackOrder: { try await adapters.updateFallbackOrder($0) })
    }
}
