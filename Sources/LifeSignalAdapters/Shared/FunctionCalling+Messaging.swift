import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FunctionCalling {
    /// Messaging through `register-push-token`, `unregister-push-token`, `subscribe-topic`,
    /// `unsubscribe-topic` and `get-device-messages`, the inbox asked again every
    /// `pollInterval`.
    ///
    /// Polling rather than Realtime on Supabase too: the inbox rows carry device tokens, which
    /// are credentials like `push_tokens` and so are never exposed to PostgREST or published
    /// by Realtime; the function checks the token is the caller's on every read.
    func functionMessagingClient(device: MessagingDevice, pollInterval: Duration) -> MessagingClient {
        let adapters = self
        return MessagingRoute(
            me: { try await adapters.me() },
            register: { token in try await adapters.registerPushToken(token, platform: "fcm") },
            unregister: { token in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.unregisterPushToken, DeviceTokenRequest(token: token))
            },
            subscribe: { token, topic in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.subscribeTopic, TopicSubscriptionRequest(token: token, topic: topic))
            },
            unsubscribe: { token, topic in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.unsubscribeTopic, TopicSubscriptionRequest(token: token, topic: topic))
            },
            inbox: { token, after in
                let reply: GetDeviceMessagesResponse = try await adapters.call(
                    CloudFunctions.getDeviceMessages, GetDeviceMessagesRequest(token: token, after: after, limit: MessagingRoute.pageSize))
                return DeviceMessagePage(messages: try reply.messages.map(RemoteMessage.init(wire:)), cursor: reply.cursor)
            },
            news: MessagingRoute.polling(every: pollInterval)
        ).client(device: device)
    }
}

extension RemoteMessage {
    init(wire: DeviceMessageResponse) throws {
        self.init(
            id: try WireParse.uuid(wire.id), title: wire.title, body: wire.body, data: wire.data, topic: wire.topic,
            sentAt: try WireParse.date(wire.sentAt))
    }
}
