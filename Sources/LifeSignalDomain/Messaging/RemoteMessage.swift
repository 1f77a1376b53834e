import Foundation

/// One push as a device receives it (seed `002_…`'s `RemoteMessage`): what the backend sent to
/// this device's token, read back from the device's inbox.
///
/// Every push the backend hands to its push provider is also kept per device token, so a
/// device that has no FCM connection (Linux, the command line, tests) still receives its
/// messages, and the system keeps a record of what it pushed.
public struct RemoteMessage: Sendable, Hashable, Codable, Identifiable {
    /// Unique per device: one push to two devices is two messages.
    public var id: UUID
    public var title: String
    public var body: String
    /// FCM's `data`: string values only. The backend's own pushes carry `type`,
    /// `notificationId` and, when a person caused them, `contactId`.
    public var data: [String: String]
    /// The topic it was sent to, or `nil` for a push addressed to this device's owner.
    public var topic: String?
    public var sentAt: Date

    public init(id: UUID, title: String, body: String, data: [String: String] = [:], topic: String? = nil, sentAt: Date) {
        self.id = id
        self.title = title
        self.body = body
        self.data = data
        self.topic = topic
        self.sentAt = sentAt
    }
}
