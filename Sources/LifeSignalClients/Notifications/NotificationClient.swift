import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// My notification centre: what the server told me (missed check-ins, pings, alerts, contact
/// changes), as a list and as it happens.
@DependencyClient
public struct NotificationClient: Sendable {
    /// Newest first.
    public var notifications: @Sendable () async throws -> [NotificationRecord]
    /// Marks the given notifications read, or all of them for `nil`; returns how many changed.
    public var markRead: @Sendable (_ ids: [UUID]?) async throws -> Int
    /// Deletes my notifications of the given types, or all for `nil`; returns how many.
    public var clear: @Sendable (_ types: [NotificationType]?) async throws -> Int
    /// Each new notification of mine as it is written, until the stream is dropped. The
    /// subscription is in place when this returns, so nothing written afterwards is missed;
    /// one written moments before may still arrive (Realtime delivers what it had not yet
    /// dispatched), so consumers key on ``NotificationRecord/id``.
    public var stream: @Sendable () async throws -> AsyncThrowingStream<NotificationRecord, any Error>
    /// Registers this device's push token for me (`platform` is `fcm`, `apns` or `web`), so my
    /// notifications also reach the device; a token seen under another account moves to mine
    /// (the phone changed hands).
    public var registerPushToken: @Sendable (_ token: String, _ platform: String) async throws -> Void
    /// Notifies one of my contacts (or myself): written to their centre and pushed to their
    /// devices. Returns the id of the notification written; anyone else is
    /// ``DomainError/forbidden(_:)``.
    public var sendPush: @Sendable (_ contact: UserID, _ title: String, _ body: String) async throws -> UUID
    /// What reaches me on each channel outside the app (push, SMS, email, calls: all, urgent or
    /// off); the defaults until I choose (``DeliveryPreferences/standard``).
    public var deliveryPreferences: @Sendable () async throws -> DeliveryPreferences
    /// Sets the channels given (`nil` keeps one as it is); returns them all as stored.
    public var updateDeliveryPreferences:
        @Sendable (_ push: ChannelChoice?, _ sms: ChannelChoice?, _ email: ChannelChoice?, _ voice: ChannelChoice?) async throws -> DeliveryPreferences
    /// The order alerts try my channels in, one after another until someone answers (empty:
    /// all at once; ``DeliveryPreferences/fallback``).
    public var updateFallbackOrder: @Sendable (_ order: [DeliveryChannel]) async throws -> DeliveryPreferences
}

extension NotificationClient: TestDependencyKey {
    public static let testValue = NotificationClient()

    /// Two notifications, one unread; marking and clearing work in memory.
    public static var previewValue: NotificationClient {
        let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000c001") ?? UUID())
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let items = LockIsolated([
            NotificationRecord(id: UUID(), userID: me, type: .pingReceived, title: "Ping from Maya", body: "Are you OK?", createdAt: at),
            NotificationRecord(
                id: UUID(), userID: me, type: .checkInReminder, title: "Check-in reminder", body: "Your deadline is in 2 hours",
                isRead: true, createdAt: at.addingTimeInterval(-3600)),
        ])
        let channels = LockIsolated(DeliveryPreferences.standard)
        return NotificationClient(
            notifications: { items.value },
            markRead: { ids in
                items.withValue { list in
                    var count = 0
                    for index in list.indices where !list[index].isRead && (ids?.contains(list[index].id) ?? true) {
                        list[index].isRead = true
                        count += 1
                    }
                    return count
                }
            },
            clear: { types in
                items.withValue { list in
                    let before = list.count
                    list.removeAll { types?.contains($0.type) ?? true }
                    return before - list.count
                }
            },
            stream: { AsyncThrowingStream { $0.finish() } },
            registerPushToken: { token, platform in
                guard ["fcm", "apns", "web"].contains(platform) else {
                    throw DomainError.invalidArgument("platform is fcm, apns or web, not \"\(platform)\"")
                }
                guard !token.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw DomainError.invalidArgument("A push token is 1 to 4096 characters")
                }
            },
            sendPush: { contact, title, body in
                guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                    throw DomainError.invalidArgument("A push has a title of 1 to 200 characters and a body of at most 2000")
                }
                let record = NotificationRecord(id: UUID(), userID: contact, type: .system, title: title, body: body, contactID: me, createdAt: Date())
                // Only a push to myself lands in my own centre.
                if contact == me { items.withValue { $0.insert(record, at: 0) } }
                return record.id
            },
            deliveryPreferences: { channels.value },
            updateDeliveryPreferences: { push, sms, email, voice in
                channels.withValue { stored in
                    if let push { stored.push = push }
                    if let sms { stored.sms = sms }
                    if let email { stored.email = email }
                    if let voice { stored.voice = voice }
                    return stored
                }
            },
            updateFallbackOrder: { order in
                try DeliveryPreferences.validate(fallback: order)
                return channels.withValue { stored in
                    stored.fallback = order
                    return stored
                }
            })
    }
}

extension DependencyValues {
    public var notificationClient: NotificationClient {
        get { self[NotificationClient.self] }
        set { self[NotificationClient.self] = newValue }
    }
}
