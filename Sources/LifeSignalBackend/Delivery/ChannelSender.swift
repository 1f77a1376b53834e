import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// One message on its way to one address, as the delivery worker hands it to a channel.
public struct OutboundMessage: Sendable, Hashable {
    /// The ledger row's id: stable across retries, so it is the idempotency key where the
    /// provider has one (APNs' `apns-id`, an email's `Message-ID`).
    public var id: UUID
    public var channel: DeliveryChannel
    /// A device token, an E.164 phone number or an email address.
    public var address: String
    /// The recipient, when the address belongs to a person with an account.
    public var recipient: UserID?
    public var kind: NotificationType
    public var title: String
    public var body: String
    /// What the app reads when a push opens it (`type`, `notificationId`, `contactId`).
    public var data: [String: String]
    /// A page the recipient can act on without the app (a responder's link to an alert).
    public var link: URL?
    /// The push platform of a device token (`fcm`, `apns`, `web`); `nil` for other channels.
    public var platform: String?

    public init(
        id: UUID, channel: DeliveryChannel, address: String, recipient: UserID?, kind: NotificationType, title: String,
        body: String, data: [String: String] = [:], link: URL? = nil, platform: String? = nil
    ) {
        self.id = id
        self.channel = channel
        self.address = address
        self.recipient = recipient
        self.kind = kind
        self.title = title
        self.body = body
        self.data = data
        self.link = link
        self.platform = platform
    }

    /// Title, body and link as one short text, for SMS (one or two segments) and push bodies
    /// that must stand alone.
    public var text: String {
        var text = "LifeSignal: \(title). \(body)"
        if let link { text += " \(link.absoluteString)" }
        return text
    }
}

/// How one attempt to send went, as the ledger records it.
public enum DeliveryOutcome: Sendable, Hashable {
    /// The provider took the message; its id, when it gives one (Twilio's `SM…`, APNs' id).
    case sent(providerMessageID: String?)
    /// Worth another try later: the provider was down, slow or throttling.
    case transient(String)
    /// Another try would fail the same way (a refused number, a bad request).
    case permanent(String)
    /// The address is dead (an unregistered device token): permanent, and the address is
    /// forgotten so nothing is sent to it again.
    case addressGone(String)
}

/// Sends messages of one channel. Implementations never throw: every failure is an outcome
/// the ledger records and, when transient, retries.
public protocol ChannelSender: Sendable {
    func send(_ message: OutboundMessage) async -> DeliveryOutcome
}

/// The senders of the channels a server has: a channel without one gets no ledger rows, so
/// nothing waits for a provider that was never configured. Push always has one (the
/// recording sender by default), because every push also goes to the device's inbox.
public struct DeliveryChannels: Sendable {
    public var sms: (any ChannelSender)?
    public var email: (any ChannelSender)?
    /// Where a push whose token is an APNs token goes, when APNs is configured directly;
    /// otherwise every push goes to the configuration's ``LifeSignalBackend/Configuration/pushSender``.
    public var apns: (any ChannelSender)?
    /// Where a push whose token is a browser's Web Push subscription goes (`web` tokens).
    public var webPush: (any ChannelSender)?
    /// Places phone calls (Twilio's Calls API); the call's script is served by the server.
    public var voice: (any ChannelSender)?

    public init(
        sms: (any ChannelSender)? = nil, email: (any ChannelSender)? = nil, apns: (any ChannelSender)? = nil, webPush: (any ChannelSender)? = nil,
        voice: (any ChannelSender)? = nil
    ) {
        self.sms = sms
        self.email = email
        self.apns = apns
        self.webPush = webPush
        self.voice = voice
    }

    /// Channels that get rows.
    var configured: Set<DeliveryChannel> {
        var channels: Set<DeliveryChannel> = [.push]
        if sms != nil { channels.insert(.sms) }
        if email != nil { channels.insert(.email) }
        if voice != nil { channels.insert(.voice) }
        return channels
    }
}

/// Keeps every message it is asked to send, for tests and the demo; can be told to fail.
public actor RecordingChannelSender: ChannelSender {
    public private(set) var sent: [OutboundMessage] = []
    /// Answers for the next attempts, in order, before the sender goes back to `.sent`.
    private var scripted: [DeliveryOutcome] = []
    private let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = capacity }

    public func send(_ message: OutboundMessage) async -> DeliveryOutcome {
        if !scripted.isEmpty {
            let outcome = scripted.removeFirst()
            if case .sent = outcome {} else { return outcome }
        }
        sent.append(message)
        if sent.count > capacity { sent.removeFirst(sent.count - capacity) }
        return .sent(providerMessageID: "rec-\(message.id.uuidString.prefix(8).lowercased())")
    }

    /// The next `outcomes` answer the next attempts, in order.
    public func fail(with outcomes: [DeliveryOutcome]) { scripted += outcomes }

    public func messages(to address: String) -> [OutboundMessage] { sent.filter { $0.address == address } }

    public func reset() {
        sent.removeAll()
        scripted.removeAll()
    }
}
