import Foundation
import LifeSignalDomain

extension BackendFunctions {
    static let notificationFunctions: [String: Handler] = [
        "register-push-token": { backend, caller, body in
            let request = try decode(RegisterPushTokenRequest.self, from: body)
            let platform = try request.platform.map { (name) throws(DomainError) -> NotificationService.Platform in
                guard let platform = NotificationService.Platform(rawValue: name) else {
                    throw .invalidArgument("platform is fcm, apns or web, not \"\(name)\"")
                }
                return platform
            } ?? .fcm
            try await backend.notifications.registerPushToken(caller: caller, token: request.token, platform: platform)
            return try encode(SuccessResponse())
        },
        "send-push-notification": { backend, caller, body in
            let request = try decode(SendPushNotificationRequest.self, from: body)
            let record = try await backend.notifications.send(
                caller: caller, to: try userID(request.userId, field: "userId"), title: request.title, body: request.body)
            return try encode(SendPushNotificationResponse(success: true, messageId: record.id.uuidString.lowercased()))
        },
        "mark-notifications-read": { backend, caller, body in
            let request = try decode(MarkNotificationsReadRequest.self, from: body)
            let ids: [UUID]?
            switch (request.notificationIds, request.all ?? false) {
            case (let list?, false): ids = try list.map { (text) throws(DomainError) in try uuid(text, field: "notificationIds") }
            case (nil, true): ids = nil
            default: throw DomainError.invalidArgument("Give either notificationIds or all: true")
            }
            let count = try await backend.notifications.markRead(caller: caller, ids: ids)
            return try encode(CountResponse(success: true, count: count))
        },
        "clear-notifications": { backend, caller, body in
            let request = try decode(ClearNotificationsRequest.self, from: body)
            let types = try request.types.map { names in
                try names.map { (name) throws(DomainError) -> NotificationType in
                    guard let type = NotificationType(rawValue: name) else { throw .invalidArgument("Unknown notification type \"\(name)\"") }
                    return type
                }
            }
            let count = try await backend.notifications.clear(caller: caller, types: types)
            return try encode(CountResponse(success: true, count: count))
        },
    ]
}

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

public struct SendPushNotificationResponse: Codable, Sendable, Hashable { public var success: Bool; public var messageId: String }

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

public struct CountResponse: Codable, Sendable, Hashable { public var success: Bool; public var count: Int }
