import Foundation
import LifeSignalDomain

/// `users/{uid}/contacts/{cid}` and `users/{uid}/invitations/{id}`: the contact list
/// (`get-contacts`) as read-only documents, the shape of the original iOS app's contacts
/// sub-collection with the contact's user fields joined in, so a client needs no second read.
///
/// Relations change only through the contact functions (both sides in one transaction,
/// with notifications); a document write could do neither, so writes here are refused.
enum ContactDocuments {
    static let contacts = "contacts"
    static let invitations = "invitations"

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
            "manualAlertActive": .bool(contact.activeAlertID != nil),
            "manualAlertId": .text(contact.activeAlertID?.uuidString.lowercased()),
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

/// `qr_lookup/{uid}`: who owns a QR code, as the original app's lookup collection.
///
/// The original rule let any signed-in person read every document there, so anyone could
/// list every code and link themselves to anyone. Here knowing a code is the capability, as
/// with `lookup-qr-code`: a person reads their own document, and finds another's only by a
/// query with an equality filter on `qrCodeId`, which matches at most that one code's owner
/// and reveals what `lookup-qr-code` does (the name) and nothing more. A query without that
/// filter, a read of another's document and every write are refused.
enum QRLookupDocuments {
    static let collection = "qr_lookup"

    static func snapshot(user: UserID, qrCode: UUID, name: String) throws(DomainError) -> DocumentSnapshot {
        DocumentSnapshot(
            path: try DocumentPath(segments: [collection, user.description]),
            data: ["uid": .string(user.description), "qrCodeId": .string(qrCode.uuidString.lowercased()), "name": .string(name)])
    }

    /// The owner of a code, as `lookup-qr-code` finds them.
    static func owner(of code: UUID, in connection: any SQLConnection) async throws -> DocumentSnapshot? {
        guard let row = try await connection.first("SELECT id, first_name, last_name, phone, qr_code_id FROM users WHERE qr_code_id = \(code)")
        else { return nil }
        return try snapshot(user: UserID(try row.uuid("id")), qrCode: try row.uuid("qr_code_id"), name: PersonName.display(row))
    }

    /// A person's own document.
    static func own(_ user: UserID, in connection: any SQLConnection) async throws -> DocumentSnapshot? {
        guard let row = try await connection.first("SELECT id, first_name, last_name, phone, qr_code_id FROM users WHERE id = \(user)")
        else { return nil }
        return try snapshot(user: user, qrCode: try row.uuid("qr_code_id"), name: PersonName.display(row))
    }

    /// The code a query is allowed to look for: its `qrCodeId == <string>` filter.
    static func code(in query: DocumentQuery) throws(DomainError) -> String {
        let codes = query.filters.compactMap { filter -> String? in
            guard filter.field == "qrCodeId", filter.op == .equal, case .string(let code) = filter.value else { return nil }
            return code
        }
        guard let code = codes.first else {
            throw .forbidden("qr_lookup cannot be listed: query it with qrCodeId == <code> to find that code's owner")
        }
        return code
    }
}
