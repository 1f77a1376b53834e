import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Ledger rows for invitation SMS (issue 19 item 1): a message to a phone number that has no
/// account, so no notification, no recipient and no channel choices stand behind it.
///
/// The row is written in the transaction that writes the invitation, with the invitation's id
/// as `notification_id`, `user_id` NULL and kind `invitation`, and is sent after the commit
/// like any other (``Notifier`` hands its id to ``DeliveryLedger/send(ids:)``). The page link
/// (`/i/<token>`) is made when the row is sent, as an alert's `/r/` link is
/// (``DeliverySenders``, from `data.invitationId`), so no credential is kept in the ledger.
///
/// The number never agreed to hear from anyone, so the text is the server's own, with nothing
/// the inviter chose (the page behind the link names them), and it goes only within every
/// count (``SendCounter``, which outlives the inviter's account): the number's invitation SMS
/// a day, its messages a day, the inviter's paid messages a day, the server's SMS budget, and
/// only to the countries SMS may go to. Past any of them the invitation still waits in the app
/// for the number to sign in; no SMS goes, silently, so an inviter never learns from the answer
/// whether others invited that number.
enum InvitationDelivery {
    /// The ledger's `kind` of an invitation SMS.
    static let kind = "invitation"

    /// The SMS's title and body (after "LifeSignal: "): no word of the inviter's.
    static func text(roles: ContactRoles) -> (title: String, body: String) {
        (
            "Invitation",
            "Someone who has this number invited you to be their \(ContactsService.describe(roles)). "
                + "To see who and answer, get the app and sign in with this number."
        )
    }

    /// Queues the SMS for `invitation` to `phone` (E.164) from `sender` (a key from
    /// ``PaidChannelGate/identity(_:phone:email:)``) and returns the row's id, or `nil` when
    /// this server sends no SMS (``DeliveryLedger/channelsInScope``) or a count or the country
    /// holds it back.
    static func enqueue(
        invitation: UUID, phone: String, roles: ContactRoles, sender: String, perNumberLimit limit: Int,
        now: Date, in connection: any SQLConnection
    ) async throws -> UUID? {
        guard DeliveryLedger.channelsInScope.contains(.sms) else { return nil }
        let rules = DeliveryLedger.rulesInScope
        let held = { (reason: HeldMessage.Reason) -> UUID? in
            rules.report(HeldMessage(channel: .sms, reason: reason, kind: kind))
            return nil
        }
        guard rules.smsAllowed(to: phone) else { return held(.country) }
        guard try await !SMSUnreachable.contains(phone, in: connection) else { return nil }
        let spent = try await SendCounter.lockBudgets(DeliveryLedger.channelsInScope.filter(\.isPaid), now: now, in: connection)
        let caps = rules.caps
        guard try await SendCounter.reserve("sender:" + sender, limit: caps.perSenderPerDay, window: SendingCaps.day, now: now, in: connection)
        else { return held(.sender) }
        guard try await SendCounter.reserve("invite:sms:" + phone, limit: limit, window: SendingCaps.day, now: now, in: connection),
            try await SendCounter.reserve("dest:sms:" + phone, limit: caps.perDestinationPerDay, window: SendingCaps.day, now: now, in: connection)
        else { return held(.destination) }
        guard (spent[.sms] ?? 0) < caps.smsPerDay else { return held(.budget) }
        try await SendCounter.spend(1, of: .sms, in: connection)
        let data = String(decoding: try JSONEncoder.sorted.encode(["type": kind, "invitationId": invitation.uuidString.lowercased()]), as: UTF8.self)
        let id = UUID()
        let message = text(roles: roles)
        try await connection.query(
            """
            INSERT INTO deliveries (id, notification_id, user_id, channel, address, kind, title, body, data, alert_id, \
            status, attempts, next_attempt_at, created_at, updated_at) VALUES
            (\(id), \(invitation), \(nil as UUID?), 'sms', \(phone), \(kind), \(message.title), \(message.body), \(data), \(nil as UUID?), \
            'queued', 0, \(now), \(now), \(now))
            """)
        return id
    }

    /// The invitation a claimed row is the SMS of, if it is one.
    static func invitationID(of delivery: ClaimedDelivery) -> UUID? {
        guard delivery.recipient == nil, delivery.channel == .sms else { return nil }
        return delivery.data["invitationId"].flatMap(UUID.init(uuidString:))
    }
}
