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

    public init(_ record: NotificationRecord) {
        id = record.id.uuidString.lowercased()
        userId = record.userID.description
        type = record.type.rawValue
        title = record.title
        body = record.body
        contactId = record.contactID?.description
        isRead = record.isRead
        createdAt = Timestamp.format(record.createdAt)
    }

    public init(id: String, userId: String, type: String, title: String, body: String, contactId: String? = nil, isRead: Bool, createdAt: String) {
        self.id = id
        self.userId = userId
        self.type = type
        self.title = title
        self.body = body
        self.contactId = contactId
        self.isRead = isRead
        self.createdAt = createdAt
    }
}

public struct GetNotificationsResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var notifications: [NotificationResponse]

    public init(success: Bool, notifications: [NotificationResponse]) {
        self.success = success
        self.notifications = notifications
    }
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

    public init(_ entry: CheckInEntry) {
        id = entry.id.uuidString.lowercased()
        checkedInAt = Timestamp.format(entry.checkedInAt)
        source = entry.source.rawValue
    }

    public init(id: String, checkedInAt: String, source: String) {
        self.id = id
        self.checkedInAt = checkedInAt
        self.source = source
    }
}

public struct CheckInHistoryResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var checkIns: [CheckInEntryResponse]

    public init(success: Bool, checkIns: [CheckInEntryResponse]) {
        self.success = success
        self.checkIns = checkIns
    }
}
