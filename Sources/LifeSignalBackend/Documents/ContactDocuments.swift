import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// `users/{uid}/contacts/{cid}` and `users/{uid}/invitations/{id}`: the contact list
/// (`get-contacts`) as read-only documents, the shape of the original iOS app's contacts
/// sub-collection with the contact's user fields joined in, so a client needs no second read.
///
/// Relations change only through the contact functions (both sides in one transaction,
/// with notifications); a document write could do neither, so writes here are refused.
enum ContactDocuments {
    static let contacts = DocumentContract.contactsCollection
    static let invitations = DocumentContract.invitationsCollection

    /// One relation, as its owner sees it: the fields `get-contacts` returns, named as the
    /// original documents name them. Check-in state is `null` unless the contact is the
    /// owner's dependent (what a responder is entitled to see).
    static func fields(_ contact: ContactSummary, lastUpdated: Date?) -> [String: DocumentValue] {
        [
            "uid": .string(contact.id.description),
            "name": .string(contact.name),
            "phoneNumber": .string(contact.phone),
            "emergencyNote": .string(contact.emergencyNote),
            "profileImageURL": .text(contact.avatarURL),
            "isResponder": .bool(contact.roles.isResponder),
            "isDependent": .bool(contact.roles.isDependent),
            "notifyOnExpiry": .bool(contact.notifyOnExpiry),
            "addedAt": .time(contact.addedAt),
            "lastUpdated": .time(lastUpdated),
            "lastCheckedIn": .time(contact.lastCheckIn),
            "expirationTimestamp": .time(contact.deadline),
            "checkInInterval": contact.checkInIntervalSeconds.map { .integer(Int64($0)) } ?? .null,
            "isNonResponsive": .bool(contact.isNonResponsive),
            // A "manual alert" is an SOS; an escalated missed check-in is an incident with an id
            // (a responder can answer it) but not a manual alert.
            "manualAlertActive": .bool(contact.hasActiveSOS),
            "manualAlertId": .text(contact.activeAlertID?.uuidString.lowercased()),
            "alertKind": .text(contact.activeAlertKind?.rawValue),
            "manualAlertTimestamp": .time(contact.alertActivatedAt),
            "hasIncomingPing": .bool(contact.incomingPingAt != nil),
            "incomingPingTimestamp": .time(contact.incomingPingAt),
            "hasOutgoingPing": .bool(contact.outgoingPingAt != nil),
            "outgoingPingTimestamp": .time(contact.outgoingPingAt),
        ]
    }

    /// A pending invitation; `direction` tells one I sent from one sent to me.
    static func fields(_ invitation: InvitationSummary, sent: Bool) -> [String: DocumentValue] {
        [
            "direction": .string(sent ? "sent" : "received"),
            "inviterId": .string(invitation.inviterID.description),
            "inviterName": .string(invitation.inviterName),
            "inviteePhone": .string(invitation.inviteePhone),
            "isResponder": .bool(invitation.roles.isResponder),
            "isDependent": .bool(invitation.roles.isDependent),
            "status": .string(invitation.status.rawValue),
            "sentAt": .time(invitation.sentAt),
        ]
    }

    /// Every contact document of `owner`, in the contact list's order.
    static func contactDocuments(of owner: UserID, now: Date, in connection: any SQLConnection) async throws -> [DocumentSnapshot] {
        let summaries = try await ContactQueries.summaries(for: owner, now: now, in: connection)
        let updated = try await connection.query("SELECT contact_id, updated_at FROM contacts WHERE user_id = \(owner)")
        let times = Dictionary(try updated.map { (UserID(try $0.uuid("contact_id")), try $0.date("updated_at")) }) { first, _ in first }
        return try summaries.map { summary in
            let lastUpdated = times[summary.id]
            return DocumentSnapshot(
                path: try DocumentPath(segments: ["users", owner.description, contacts, summary.id.description]),
                data: fields(summary, lastUpdated: lastUpdated),
                createTime: DocumentTimestamp.truncated(summary.addedAt), updateTime: lastUpdated.map(DocumentTimestamp.truncated))
        }
    }

    /// Every pending invitation of `owner`, sent ones first, each by time sent.
    static func invitationDocuments(of owner: UserID, in connection: any SQLConnection) async throws -> [DocumentSnapshot] {
        let sent = try await ContactQueries.invitations(sentBy: owner, in: connection).map { ($0, true) }
        let received = try await ContactQueries.invitations(receivedBy: owner, in: connection).map { ($0, false) }
        return try (sent + received).map { invitation, isSent in
            let time = DocumentTimestamp.truncated(invitation.sentAt)
            return DocumentSnapshot(
                path: try DocumentPath(segments: ["users", owner.description, invitations, invitation.id.uuidString.lowercased()]),
                data: fields(invitation, sent: isSent), createTime: time, updateTime: time)
        }
    }
}
