import Foundation
import LifeSignalDomain

/// One of my device tokens.
public struct DeviceTokenRequest: Codable, Sendable {
    public var token: String
    public init(token: String) { self.token = token }
}

public struct TopicSubscriptionRequest: Codable, Sendable {
    public var token: String
    /// FCM's rule: `[a-zA-Z0-9-_.~%]{1,900}`.
    public var topic: String

    public init(token: String, topic: String) {
        self.token = token
        self.topic = topic
    }
}

/// My token's inbox after `after` (a previous reply's `cursor`; 0 or left out for all),
/// oldest first, at most `limit` (default 100, at most 500).
public struct GetDeviceMessagesRequest: Codable, Sendable {
    public var token: String
    public var after: Int?
    public var limit: Int?

    public init(token: String, after: Int?, limit: Int? = nil) {
        self.token = token
        self.after = after
        self.limit = limit
    }
}

public struct DeviceMessageResponse: Codable, Sendable, Hashable {
    public var id: String
    public var title: String
    public var body: String
    public var data: [String: String]
    public var topic: String?
    public var sentAt: String

    public init(_ message: RemoteMessage) {
        self.id = message.id.uuidString.lowercased()
        self.title = message.title
        self.body = message.body
        self.data = message.data
        self.topic = message.topic
        self.sentAt = Timestamp.format(message.sentAt)
    }
}

/// `cursor` is what to pass as `after` next time; it stays put when nothing came.
public struct GetDeviceMessagesResponse: Codable, Sendable, Hashable {
    public var messages: [DeviceMessageResponse]
    public var cursor: Int

    public init(messages: [DeviceMessageResponse], cursor: Int) {
        self.messages = messages
        self.cursor = cursor
    }
}

/// Service role only: a message to every device subscribed to `topic`.
public struct SendTopicMessageRequest: Codable, Sendable {
    public var topic: String
    public var title: String
    public var body: String
    public var data: [String: String]?

    public init(topic: String, title: String, body: String, data: [String: String]? = nil) {
        self.topic = topic
        self.title = title
        self.body = body
        self.data = data
    }
}
