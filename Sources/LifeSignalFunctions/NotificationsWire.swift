import Foundation
import LifeSignalDomain

public struct RegisterPushTokenRequest: Codable, Sendable {
    public var token: String
    /// `fcm` (default), `apns` or `web`.
    public var platform: String?

    public init(token: String, platform: String?) {
        self.token = token
        self.platform = platform
    }
}

/// From the Supabase edge function of the same name; `data` is accepted and ignored.
public struct SendPushNotificationRequest: Codable, Sendable {
    public var userId: String
    public var title: String
    public var body: String
    public var data: [String: String]?

    public init(userId: String, title: String, body: String, data: [String: String]? = nil) {
        self.userId = userId
        self.title = title
        self.body = body
        self.data = data
    }
}

public struct SendPushNotificationResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var messageId: String
    public init(success: Bool, messageId: String) {
        self.success = success
        self.messageId = messageId
    }
}

/// Either some notifications by id, or `all: true`.
public struct MarkNotificationsReadRequest: Codable, Sendable {
    public var notificationIds: [String]?
    public var all: Bool?

    public init(notificationIds: [String]?, all: Bool?) {
        self.notificationIds = notificationIds
        self.all = all
    }
}

/// `types` to clear (NotificationType raw values); all of the caller's when left out.
public struct ClearNotificationsRequest: Codable, Sendable {
    public var types: [String]?
    public init(types: [String]?) { self.types = types }
}

public struct CountResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var count: Int
    public init(success: Bool, count: Int) {
        self.success = success
        self.count = count
    }
}
