import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The senders of one server's channels, and what a send needs besides them: the device
/// inbox every push also lands in, the responder links messages carry, and an observer for
/// metrics.
struct DeliverySenders: Sendable {
    let database: any Database
    let clock: BackendClock
    let changes: ChangeFeed
    let push: any PushSender
    let channels: DeliveryChannels
    /// The page a responder opens from a message about an alert, when the server makes them.
    let link: @Sendable (_ alert: UUID, _ responder: UserID) -> URL?
    let observe: @Sendable (DeliveryChannel, DeliveryOutcome) -> Void
    /// The page an invitation SMS links to (`/i/<token>`), when the server makes them.
    var invitationLink: @Sendable (_ invitation: UUID) -> URL? = { _ in nil }
    /// The one-tap check-in page a reminder links to, for the person's deadline.
    var checkInLink: @Sendable (_ person: UserID, _ deadline: Date) -> URL? = { _, _ in nil }
    /// The page a test alert's message links to, for that message.
    var testLink: @Sendable (_ notification: UUID) -> URL? = { _ in nil }

    /// Channels this server sends, as bound SQL values.
    var channelList: SQL {
        SQL.join(DeliveryChannel.allCases.filter(channels.configured.contains).map { "\($0.rawValue)" }, separator: ", ")
    }

    func send(_ delivery: ClaimedDelivery, timeout: Duration) async -> DeliveryOutcome {
        let task = Task<DeliveryOutcome, any Error> { await attempt(delivery) }
        switch await TimeLimit.result(of: task, within: timeout) {
        case .success(let outcome)?: return outcome
        case .failure(let error)?: return .transient("\(error)")
        case nil: return .transient("no answer from the provider within \(timeout)")
        }
    }

    private func attempt(_ delivery: ClaimedDelivery) async -> DeliveryOutcome {
        var message = OutboundMessage(
            id: delivery.id, channel: delivery.channel, address: delivery.address, recipient: delivery.recipient,
            kind: delivery.kind, title: delivery.title, body: delivery.body, data: delivery.data)
        // Rows of every incident message name the alert; only a responder's message about it
        // carries the page a responder acts on.
        if DeliveryQueue.alertKinds.contains(delivery.kind), let alert = delivery.alertID, let responder = delivery.recipient,
            let url = link(alert, responder)
        {
            message.link = url
            message.data["link"] = url.absoluteString
        } else if let invitation = InvitationDelivery.invitationID(of: delivery), let url = invitationLink(invitation) {
            message.link = url
        } else if delivery.kind == .testAlert, let id = delivery.data["notificationId"].flatMap(UUID.init(uuidString:)), let url = testLink(id) {
            message.link = url
            message.data["link"] = url.absoluteString
        } else if delivery.kind == .checkInReminder, let person = delivery.recipient, let url = await reminderLink(for: person) {
            message.link = url
            message.data["link"] = url.absoluteString
        }
        switch delivery.channel {
        case .push: return await sendPush(message, delivery: delivery)
        case .sms: return await channels.sms?.send(message) ?? .transient("no SMS sender on this server")
        case .email: return await channels.email?.send(message) ?? .transient("no email sender on this server")
        case .voice: return await channels.voice?.send(message) ?? .transient("no call sender on this server")
        }
    }

    /// The check-in link for the person's deadline as it is when the reminder leaves (a
    /// reminder about a deadline they have since moved carries a link that says so).
    private func reminderLink(for person: UserID) async -> URL? {
        let row = try? await database.readOutsideWriter("SELECT check_in_deadline FROM users WHERE id = \(person)").first
        guard let deadline = row?.optionalDate("check_in_deadline") else { return nil }
        return checkInLink(person, deadline)
    }

    /// Into the device's inbox first (once, keyed by the row's id, however often the push is
    /// retried), then to APNs directly for an APNs token when the server has it, else to the
    /// push sender (FCM, or the recording one).
    private func sendPush(_ message: OutboundMessage, delivery: ClaimedDelivery) async -> DeliveryOutcome {
        guard let owner = delivery.recipient else { return .permanent("a push needs a recipient") }
        var message = message
        do {
            // A topic message's inbox entry keeps its topic, as the device asked for it by topic.
            guard let platform = try await recordInInbox(message, owner: owner, topic: delivery.topic, at: clock.now()) else {
                return .addressGone("the device token is no longer registered to this person")
            }
            message.platform = platform
        } catch {
            return .transient("device inbox: \(error)")
        }
        if message.platform == "apns", let apns = channels.apns { return await apns.send(message) }
        if message.platform == "web", WebPushEndpoints.isSubscription(message.address) {
            // A browser's own subscription: only Web Push reaches it, never FCM's device API.
            return await channels.webPush?.send(message) ?? .permanent("this server sends no Web Push")
        }
        return await push.deliver(PushMessage(token: message.address, title: message.title, body: message.body, data: message.data))
    }

    /// Writes the inbox entry unless an earlier attempt did, and returns the token's platform,
    /// or `nil` when the token is gone or now someone else's.
    private func recordInInbox(_ message: OutboundMessage, owner: UserID, topic: String?, at time: Date) async throws -> String? {
        let entry = InboxEntry(
            user: owner, message: PushMessage(token: message.address, title: message.title, body: message.body, data: message.data),
            topic: topic, sentAt: time)
        guard let (platform, event) = try await DeviceInbox.recordDelivery(entry, id: message.id, in: database) else { return nil }
        if let event { changes.publish([event]) }
        return platform
    }
}

extension JSONEncoder {
    /// Keys sorted, so equal dictionaries encode to equal text.
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

/// Errors a ``PushSender`` throws that know how the ledger should take them.
public protocol DeliveryOutcomeConvertible: Error {
    var deliveryOutcome: DeliveryOutcome { get }
}

extension PushSender {
    /// One push as a ledger attempt: sent, or the thrown error as an outcome (a passing
    /// failure unless the error says otherwise).
    public func deliver(_ message: PushMessage) async -> DeliveryOutcome {
        do {
            try await send([message])
            return .sent(providerMessageID: nil)
        } catch let error as any DeliveryOutcomeConvertible {
            return error.deliveryOutcome
        } catch {
            return .transient("\(error)")
        }
    }
}
