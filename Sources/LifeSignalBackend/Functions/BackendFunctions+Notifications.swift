import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    static let notificationFunctions: [Registration] = [
        handle(CloudFunctions.registerPushToken) { backend, caller, request in
            let platform =
                try request.platform.map { (name) throws(DomainError) -> NotificationService.Platform in
                    guard let platform = NotificationService.Platform(rawValue: name) else {
                        throw .invalidArgument("platform is fcm, apns or web, not \"\(name)\"")
                    }
                    return platform
                } ?? .fcm
            try await backend.notifications.registerPushToken(caller: caller, token: request.token, platform: platform)
            return SuccessResponse()
        },
        handle(CloudFunctions.sendPushNotification) { backend, caller, request in
            let record = try await backend.notifications.send(
                caller: caller, to: try WireField.userID(request.userId, field: "userId"), title: request.title, body: request.body)
            return SendPushNotificationResponse(success: true, messageId: record.id.uuidString.lowercased())
        },
        handle(CloudFunctions.markNotificationsRead) { backend, caller, request in
            let ids: [UUID]?
            switch (request.notificationIds, request.all ?? false) {
            case (let list?, false): ids = try list.map { (text) throws(DomainError) in try WireField.uuid(text, field: "notificationIds") }
            case (nil, true): ids = nil
            default: throw DomainError.invalidArgument("Give either notificationIds or all: true")
            }
            let count = try await backend.notifications.markRead(caller: caller, ids: ids)
            return CountResponse(success: true, count: count)
        },
        handle(CloudFunctions.clearNotifications) { backend, caller, request in
            let types = try request.types.map { names in
                try names.map { (name) throws(DomainError) -> NotificationType in
                    guard let type = NotificationType(rawValue: name) else { throw .invalidArgument("Unknown notification type \"\(name)\"") }
                    return type
                }
            }
            let count = try await backend.notifications.clear(caller: caller, types: types)
            return CountResponse(success: true, count: count)
        },
    ]
}
