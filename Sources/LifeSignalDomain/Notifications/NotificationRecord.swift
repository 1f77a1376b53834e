import Foundation

/// A stored notification, as the history sheet shows it.
public struct NotificationRecord: Sendable, Hashable, Codable, Identifiable {
    public var id: UUID
    public var userID: UserID
    public var type: NotificationType
    public var title: String
    public var body: String
    /// The other person it is about (the dependent who missed a check-in, the pinging responder).
    public var contactID: UserID?
    public var isRead: Bool
    public var createdAt: Date

    public init(id: UUID, userID: UserID, type: NotificationType, title: String, body: String, contactID: UserID? = nil, isRead: Bool = false, createdAt: Date)
    {
        self.id = id
        self.userID = userID
        self.type = type
        self.title = title
        self.body = body
        self.contactID = contactID
        self.isRead = isRead
        self.createdAt = createdAt
    }

    /// The `notifications` table's column names, so a row read through PostgREST or Realtime
    /// decodes directly.
    enum CodingKeys: String, CodingKey {
        case id, type, title, body
        case userID = "user_id"
        case contactID = "contact_id"
        case isRead = "is_read"
        case createdAt = "created_at"
    }
}
