import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// A device's messaging (`MessagingService`): the token itself is registered by
    /// `register-push-token`.
    static let messagingFunctions: [Registration] = [
        handle(CloudFunctions.unregisterPushToken) { backend, caller, request in
            try await backend.messaging.unregister(caller: caller, token: request.token)
            return SuccessResponse()
        },
        handle(CloudFunctions.subscribeTopic) { backend, caller, request in
            try await backend.messaging.subscribe(caller: caller, token: request.token, topic: request.topic)
            return SuccessResponse()
        },
        handle(CloudFunctions.unsubscribeTopic) { backend, caller, request in
            try await backend.messaging.unsubscribe(caller: caller, token: request.token, topic: request.topic)
            return SuccessResponse()
        },
        handle(CloudFunctions.getDeviceMessages) { backend, caller, request in
            let page = try await backend.messaging.messages(caller: caller, token: request.token, after: request.after ?? 0, limit: request.limit ?? 100)
            return GetDeviceMessagesResponse(messages: page.messages.map(DeviceMessageResponse.init), cursor: page.cursor)
        },
        handle(CloudFunctions.sendTopicMessage) { backend, caller, request in
            let count = try await backend.messaging.sendToTopic(
                caller: caller, topic: request.topic, title: request.title, body: request.body, data: request.data ?? [:])
            return CountResponse(success: true, count: count)
        },
    ]
}
