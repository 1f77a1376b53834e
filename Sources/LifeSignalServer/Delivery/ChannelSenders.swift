import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalWeb

/// Notifications as SMS through Twilio: title, body and, for a responder's alert, the link.
public struct TwilioChannelSender: ChannelSender {
    let client: TwilioClient
    /// Whether texts to the number reach the server (`POST /hooks/twilio/sms`): then a
    /// reminder says how to check in by answering it.
    let acceptsReplies: Bool

    public init(client: TwilioClient, acceptsReplies: Bool = false) {
        self.client = client
        self.acceptsReplies = acceptsReplies
    }

    /// The SMS for `message`: its text, and for a check-in reminder the way to answer it.
    static func body(_ message: OutboundMessage, acceptsReplies: Bool) -> String {
        let text = acceptsReplies && message.kind == .checkInReminder ? message.text + " Reply OK to check in." : message.text
        return String(text.prefix(1600))
    }

    public func send(_ message: OutboundMessage) async -> DeliveryOutcome {
        do {
            let receipt = try await client.send(to: message.address, body: Self.body(message, acceptsReplies: acceptsReplies))
            return .sent(providerMessageID: receipt.sid)
        } catch let error as SMSError {
            if error.isUnreachableNumber { return .addressGone(error.description) }
            return error.isTransient ? .transient(error.description) : .permanent(error.description)
        } catch {
            return .transient("\(error)")
        }
    }
}

/// Notifications as email over SMTP: a plain-text and an HTML part, `Message-ID` from the
/// ledger row (so a message sent twice after a crash is recognisably the same one).
public struct EmailChannelSender: ChannelSender {
    let client: SMTPClient
    let from: EmailAddress

    public init(client: SMTPClient, from: EmailAddress) {
        self.client = client
        self.from = from
    }

    public func send(_ message: OutboundMessage) async -> DeliveryOutcome {
        do {
            let email = EmailMessage(
                from: from, to: [try EmailAddress(message.address)], subject: message.title,
                text: Self.text(message), html: Self.html(message),
                messageID: "\(message.id.uuidString.lowercased())@lifesignal")
            return .sent(providerMessageID: try await client.send(email))
        } catch let error as EmailError {
            return error.isTransient ? .transient(error.description) : .permanent(error.description)
        } catch {
            return .transient("\(error)")
        }
    }

    static func text(_ message: OutboundMessage) -> String {
        var text = message.body
        if let link = message.link { text += "\n\nSee what is happening and answer: \(link.absoluteString)" }
        return text + "\n\n— LifeSignal"
    }

    static func html(_ message: OutboundMessage) -> String {
        var html = "<!DOCTYPE html><html lang=\"en\"><body><h1>\(PageHTML.escape(message.title))</h1><p>\(PageHTML.escape(message.body))</p>"
        if let link = message.link {
            html += "<p><a href=\"\(PageHTML.escape(link.absoluteString))\">See what is happening and answer</a></p>"
        }
        return html + "<p>— LifeSignal</p></body></html>"
    }
}

/// Pushes to APNs tokens straight to Apple. What cannot wait (a missed check-in, an SOS, its
/// all-clear) is time-sensitive, or critical where the app has the entitlement; one collapse
/// id per person and kind, so a repeat replaces the one shown instead of piling up.
public struct APNsChannelSender: ChannelSender {
    let client: APNsClient
    let critical: Bool

    public init(client: APNsClient, critical: Bool) {
        self.client = client
        self.critical = critical
    }

    public func send(_ message: OutboundMessage) async -> DeliveryOutcome {
        let level: APNsNotification.InterruptionLevel = message.kind.isUrgent ? (critical ? .critical : .timeSensitive) : .active
        let about = message.data["contactId"] ?? message.recipient?.description ?? "self"
        let notification = APNsNotification(
            title: message.title, body: message.body, interruptionLevel: level, threadID: about, data: message.data,
            collapseID: String("\(message.kind.rawValue):\(about)".utf8.prefix(64)) ?? message.kind.rawValue)
        do {
            let id = try await client.send(notification, to: message.address, id: message.id)
            return .sent(providerMessageID: id.uuidString.lowercased())
        } catch let error as APNsError {
            if error.isUnregistered { return .addressGone(error.description) }
            return error.isTransient ? .transient(error.description) : .permanent(error.description)
        } catch {
            return .transient("\(error)")
        }
    }
}
