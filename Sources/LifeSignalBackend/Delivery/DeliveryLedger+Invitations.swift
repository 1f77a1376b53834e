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
enum InvitationDelivery {
    /// The ledger's `kind` of an invitation SMS.
    static let kind = "invitation"

    /// Queues the SMS for `invitation` to `phone` (E.164) and returns the row's id, or `nil`
    /// when this server sends no SMS (``DeliveryLedger/channelsInScope``) or the number has
    /// had `limit` invitation SMS in the last ``InvitationLimits/window``.
    static func enqueue(
        invitation: UUID, phone: String, title: String, body: String, perNumberLimit limit: Int,
        now: Date, in connection: any SQLConnection
    ) async throws -> UUID? {
        guard DeliveryLedger.channelsInScope.contains(.sms), limit > 0 else { return nil }
        // Through the invitations to the number (indexed on the phone), then each one's SMS
        // row (the ledger's unique key starts with notification_id): no scan of the ledger.
        let recent = try await connection.query(
            """
            SELECT d.id FROM contact_invitations i JOIN deliveries d ON d.notification_id = i.id
            WHERE i.invitee_phone = \(phone) AND i.created_at > \(now.addingTimeInterval(-InvitationLimits.window)) \
            AND d.channel = 'sms' AND d.kind = \(kind) LIMIT \(limit)
            """)
        guard recent.count < limit else { return nil }
        let data = String(decoding: try JSONEncoder.sorted.encode(["type": kind, "invitationId": invitation.uuidString.lowercased()]), as: UTF8.self)
        let id = UUID()
        try await connection.query(
            """
            INSERT INTO deliveries (id, notification_id, user_id, channel, address, kind, title, body, data, alert_id, \
            status, attempts, next_attempt_at, created_at, updated_at) VALUES
            (\(id), \(invitation), \(nil as UUID?), 'sms', \(phone), \(kind), \(title), \(body), \(data), \(nil as UUID?), \
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
