import Crypto
import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain

/// Pushes to browsers through their push services (Web Push: RFC 8030, VAPID RFC 8292,
/// `aes128gcm` RFC 8291). The token is the subscription's JSON as the page registered it
/// (``WebPushEndpoints/validate(_:)``). What cannot wait (a missed check-in, an SOS, its
/// all-clear) goes with `Urgency: high` and a day to live; one topic per person and kind, so a
/// repeat replaces an undelivered one instead of piling up on a phone that was off.
public struct WebPushChannelSender: ChannelSender {
    let client: WebPushClient
    let endpoints: WebPushEndpoints

    public init(client: WebPushClient, endpoints: WebPushEndpoints) {
        self.client = client
        self.endpoints = endpoints
    }

    /// What the page's service worker shows: `title`, `body`, the page to open and the app's data.
    struct Payload: Encodable {
        let title: String
        let body: String
        let link: String
        let data: [String: String]
    }

    public func send(_ message: OutboundMessage) async -> DeliveryOutcome {
        let subscription: WebPushSubscription
        do {
            // Checked again as it is used: the operator may have narrowed the hosts since.
            let stored = try endpoints.subscription(message.address)
            subscription = try WebPushSubscription(endpoint: stored.endpoint, p256dh: stored.keys.p256dh, auth: stored.keys.auth)
        } catch {
            return .addressGone("not a Web Push subscription this server sends to: \(error)")
        }
        let payload = Payload(title: message.title, body: message.body, link: message.link?.absoluteString ?? "/", data: message.data)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let body = try? encoder.encode(payload) else { return .permanent("the message could not be encoded") }
        let about = message.data["contactId"] ?? message.recipient?.description ?? "self"
        let urgent = message.kind.isUrgent
        let topic = Base64URL.encode(SHA256.hash(data: Data("\(message.kind.rawValue):\(about)".utf8)).prefix(24))
        let push = WebPushMessage(
            payload: body.count <= WebPushMessage.maximumPayloadBytes ? body : Data(encodingShort(payload).utf8),
            timeToLive: urgent ? .seconds(86_400) : .seconds(3600), urgency: urgent ? .high : .normal, topic: topic)
        do {
            let receipt = try await client.send(push, to: subscription)
            return .sent(providerMessageID: receipt.location?.lastPathComponent)
        } catch {
            if error.isSubscriptionGone { return .addressGone(error.description) }
            return error.isTransient ? .transient(error.description) : .permanent(error.description)
        }
    }

    /// A payload that fits however long the body: title and link only.
    private func encodingShort(_ payload: Payload) -> String {
        let short = Payload(title: String(payload.title.prefix(200)), body: "", link: payload.link, data: [:])
        return (try? JSONEncoder().encode(short)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
