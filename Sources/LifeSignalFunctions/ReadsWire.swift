import Foundation
import LifeSignalDomain

/// `get-notifications`: at most `limit` (1…1000, default 100), newest first.
public struct GetNotificationsRequest: Codable, Sendable {
    public var limit: Int?
    public init(limit: Int? = nil) { self.limit = limit }
}
/// One notification on the wire: ids lower-case, times in ``Timestamp`` form.
public struct NotificationResponse: Codable, Sendable, Hashable {
    public var id: String
    public var userId: String
    public var type: String
    public var title: String
    public var body: String
    public var contactId: String?
    public var isRead: Bool
    public var createdAt: String

    init(_ record: NotificationRecord) {
        id = record.id.uuidString.lowercased()
        userId = record.userID.description
        type = record.type.rawValue
        title = record.title
        body = record.body
        contactId = record.contactID?.description
        isRead = record.isRead
        createdAt = Timestamp.format(record.createdAt)
    }
}
public struct GetNotificationsResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var notifications: [NotificationResponse]
}
/// `get-check-in-history`: at most `limit` (1…500, default 50), newest first.
public struct CheckInHistoryRequest: Codable, Sendable {
    public var limit: Int?
    public init(limit: Int? = nil) { self.limit = limit }
}
public struct CheckInEntryResponse: Codable, Sendable, Hashable {
    public var id: String
    public var checkedInAt: String
    /// A ``CheckInSource`` raw value.
    public var source: String

    init(_ entry: CheckInEntry) {
        id = entry.id.uuidString.lowercased()
        checkedInAt = Timestamp.format(entry.checkedInAt)
        source = entry.source.rawValue
    }
}
public struct CheckInHistoryResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var checkIns: [CheckInEntryResponse]
}
