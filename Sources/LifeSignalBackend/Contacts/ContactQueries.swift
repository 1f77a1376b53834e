import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The reads behind `get-contacts`: one statement for all contacts, joining each contact's
/// check-in state, active alert and pending pings (the partial unique indexes guarantee at
/// most one of each, so the joins never multiply rows).
enum ContactQueries {
    private static func select(_ me: UserID) -> SQL {
        """
        SELECT c.contact_id, c.is_responder, c.is_dependent, c.notify_on_expiry, c.added_at,
               u.first_name, u.last_name, u.phone, u.emergency_note, u.avatar_url,
               u.last_check_in_at, u.check_in_deadline, u.check_in_interval_seconds,
               a.id AS alert_id, a.kind AS alert_kind, a.activated_at AS alert_activated_at,
               pin.sent_at AS incoming_ping_at, pout.sent_at AS outgoing_ping_at
        FROM contacts c
        JOIN users u ON u.id = c.contact_id
        LEFT JOIN alerts a ON a.user_id = c.contact_id AND a.status = 'active'
        LEFT JOIN pings pin ON pin.sender_id = c.contact_id AND pin.recipient_id = c.user_id AND pin.status = 'pending'
        LEFT JOIN pings pout ON pout.sender_id = c.user_id AND pout.recipient_id = c.contact_id AND pout.status = 'pending'
        WHERE c.user_id = \(me)
        """
    }

    static func summaries(for me: UserID, now: Date, in connection: any SQLConnection) async throws -> [ContactSummary] {
        try await connection.query(select(me) + " ORDER BY c.added_at, c.contact_id").map { try summary($0, now: now) }
    }

    static func summary(of contact: UserID, for me: UserID, now: Date, in connection: any SQLConnection) async throws -> ContactSummary {
        guard let row = try await connection.first(select(me) + " AND c.contact_id = \(contact)") else {
            throw DomainError.notFound("Contact \(contact)")
        }
        return try summary(row, now: now)
    }

    private static func summary(_ row: SQLRow, now: Date) throws -> ContactSummary {
        let roles = try ContactRoles(isResponder: try row.bool("is_responder"), isDependent: try row.bool("is_dependent"))
        // A responder sees a dependent's note, check-in and alert; nobody else does.
        let visible = roles.isDependent
        let deadline = visible ? row.optionalDate("check_in_deadline") : nil
        return ContactSummary(
            id: UserID(try row.uuid("contact_id")), name: PersonName.display(row), phone: try row.string("phone"),
            roles: roles, emergencyNote: visible ? row.optionalString("emergency_note") ?? "" : "", avatarURL: row.optionalString("avatar_url"),
            addedAt: try row.date("added_at"), notifyOnExpiry: try row.bool("notify_on_expiry"),
            lastCheckIn: visible ? row.optionalDate("last_check_in_at") : nil, deadline: deadline,
            checkInIntervalSeconds: visible ? row.optionalInt("check_in_interval_seconds") : nil,
            isNonResponsive: deadline.map { $0 <= now } ?? false,
            activeAlertID: visible ? row.optionalUUID("alert_id") : nil,
            alertActivatedAt: visible ? row.optionalDate("alert_activated_at") : nil,
            incomingPingAt: roles.isResponder ? row.optionalDate("incoming_ping_at") : nil,
            outgoingPingAt: roles.isDependent ? row.optionalDate("outgoing_ping_at") : nil,
            activeAlertKind: visible ? row.optionalString("alert_kind").flatMap(AlertKind.init(rawValue:)) : nil)
    }

    private static let invitationColumns: SQL = """
        SELECT i.id, i.inviter_id, i.invitee_phone, i.is_responder, i.is_dependent, i.status, i.created_at,
               u.first_name, u.last_name, u.phone
        FROM contact_invitations i JOIN users u ON u.id = i.inviter_id
        """

    static func invitations(sentBy me: UserID, in connection: any SQLConnection) async throws -> [InvitationSummary] {
        try await connection.query(invitationColumns + " WHERE i.inviter_id = \(me) AND i.status = 'pending' ORDER BY i.created_at")
            .map(invitation)
    }

    static func invitations(receivedBy me: UserID, in connection: any SQLConnection) async throws -> [InvitationSummary] {
        guard let phone = try await verifiedPhone(of: me, in: connection) else { return [] }
        return try await connection.query(invitationColumns + " WHERE i.invitee_phone = \(phone) AND i.status = 'pending' ORDER BY i.created_at")
            .map(invitation)
    }

    static func invitation(_ row: SQLRow) throws -> InvitationSummary {
        let statusName = try row.string("status")
        guard let status = InvitationStatus(rawValue: statusName) else { throw DatabaseError.decoding("invitation status \(statusName)") }
        return InvitationSummary(
            id: try row.uuid("id"), inviterID: UserID(try row.uuid("inviter_id")), inviterName: PersonName.display(row),
            inviteePhone: try row.string("invitee_phone"),
            roles: try ContactRoles(isResponder: try row.bool("is_responder"), isDependent: try row.bool("is_dependent")),
            status: status, sentAt: try row.date("created_at"))
    }

    /// The phone number the person proved they own at sign-in (E.164). Invitations are matched
    /// on it, never on the profile's editable phone, so nobody can claim another's invitation
    /// by typing their number into a profile.
    static func verifiedPhone(of user: UserID, in connection: any SQLConnection) async throws -> String? {
        guard let digits = try await connection.first("SELECT phone FROM auth_users WHERE id = \(user)")?.optionalString("phone")
        else { return nil }
        return "+" + digits
    }
}
