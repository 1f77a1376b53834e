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
}

extension NotificationClient: TestDependencyKey {
    public static let testValue = NotificationClient()

    /// Two notifications, one unread; marking and clearing work in memory.
    public static var previewValue: NotificationClient {
        let me = UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000c001") ?? UUID())
        let at = Date(timeIntervalSince1970: 1_800_000_000)
        let items = LockIsolated([
            NotificationRecord(id: UUID(), userID: me, type: .pingReceived, title: "Ping from Maya", body: "Are you OK?", createdAt: at),
            NotificationRecord(id: UUID(), userID: me, type: .checkInReminder, title: "Check-in reminder", body: "Your deadline is in 2 hours",
                               isRead: true, createdAt: at.addingTimeInterval(-3600)),
        ])
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
            stream: { AsyncThrowingStream { $0.finish() } })
    }
}

extension DependencyValues {
    public var notificationClient: NotificationClient {
        get { self[NotificationClient.self] }
        set { self[NotificationClient.self] = newValue }
    }
}
