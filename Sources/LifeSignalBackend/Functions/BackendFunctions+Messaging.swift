import Foundation
import LifeSignalDomain

extension BackendFunctions {
    /// A device's messaging (`MessagingService`): the token itself is registered by
    /// `register-push-token`.
    static let messagingFunctions: [String: Handler] = [
        "unregister-push-token": { backend, caller, body in
            let request = try decode(DeviceTokenRequest.self, from: body)
            try await backend.messaging.unregister(caller: caller, token: request.token)
            return try encode(SuccessResponse())
        },
        "subscribe-topic": { backend, caller, body in
            let request = try decode(TopicSubscriptionRequest.self, from: body)
            try await backend.messaging.subscribe(caller: caller, token: request.token, topic: request.topic)
            return try encode(SuccessResponse())
        },
        "unsubscribe-topic": { backend, caller, body in
            let request = try decode(TopicSubscriptionRequest.self, from: body)
            try await backend.messaging.unsubscribe(caller: caller, token: request.token, topic: request.topic)
            return try encode(SuccessResponse())
        },
        "get-device-messages": { backend, caller, body in
            let request = try decode(GetDeviceMessagesRequest.self, from: body)
            let page = try await backend.messaging.messages(caller: caller, token: request.token, after: request.after ?? 0, limit: request.limit ?? 100)
            return try encode(GetDeviceMessagesResponse(messages: page.messages.map(DeviceMessageResponse.init), cursor: page.cursor))
        },
        "send-topic-message": { backend, caller, body in
            let request = try decode(SendTopicMessageRequest.self, from: body)
            let count = try await backend.messaging.sendToTopic(
                caller: caller, topic: request.topic, title: request.title, body: request.body, data: request.data ?? [:])
            return try encode(CountResponse(success: true, count: count))
        },
    ]
}

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
