import Foundation
import LifeSignalDomain

/// Invitations by phone: `invite-contact`, `accept-invitation`, `decline-invitation`.
///
/// The invitee need not have an account yet; an invitation waits for whoever signs in with
/// that (verified) number. Accepting creates the pair exactly as a QR add does.
extension ContactsService {
    /// Invites the person with `phone` to hold `roles` for the caller.
    public func invite(caller: Caller, phone text: String, roles: ContactRoles) async throws -> InvitationSummary {
        let me = try caller.requireUser()
        let phone = try PhoneNumber(text)
        let now = clock.now()
        let (invitation, outbox): (InvitationSummary, Outbox) = try await database.transaction { connection in
            guard let inviter = try await connection.first("SELECT id, first_name, last_name, phone FROM users WHERE id = \(me)") else {
                throw DomainError.notFound("User \(me)")
            }
            if try await ContactQueries.verifiedPhone(of: me, in: connection) == phone.e164 {
                throw DomainError.invalidArgument("You cannot invite yourself")
            }
            let invitee = try await connection.first("SELECT id FROM auth_users WHERE phone = \(phone.digits)")
                .map { UserID(try $0.uuid("id")) }
            if let invitee, try await ContactPairs.roles(of: invitee, for: me, in: connection) != nil {
                throw DomainError.alreadyExists("Contact \(phone.e164)")
            }
            let id = UUID()
            do {
                try await connection.query("""
                    INSERT INTO contact_invitations (id, inviter_id, invitee_phone, is_responder, is_dependent, status, created_at)
                    VALUES (\(id), \(me), \(phone.e164), \(roles.isResponder), \(roles.isDependent), 'pending', \(now))
                    """)
            } catch let error as DatabaseError where error.isUniqueViolation {
                throw DomainError.alreadyExists("A pending invitation to \(phone.e164)")
            }
            var outbox = Outbox()
            outbox.change("contact_invitations", .insert, id, owner: me, at: now)
            if let invitee {
                outbox.append(try await NotificationStore.outbox([
                    NotificationDraft(
                        recipient: invitee, type: .system, title: "Contact invitation",
                        body: "\(PersonName.display(inviter)) invited you to be their \(Self.describe(roles)).", contactID: me),
                ], now: now, in: connection))
            }
            let summary = InvitationSummary(
                id: id, inviterID: me, inviterName: PersonName.display(inviter), inviteePhone: phone.e164,
                roles: roles, status: .pending, sentAt: now)
            return (summary, outbox)
        }
        await notifier.deliver(outbox)
        return invitation
    }

    /// Accepts an invitation addressed to the caller's phone: the inviter becomes a contact.
    /// Returns the inviter as the caller now sees them.
    public func acceptInvitation(caller: Caller, invitationID: UUID) async throws -> ContactSummary {
        let me = try caller.requireUser()
        let now = clock.now()
        let (summary, outbox): (ContactSummary, Outbox) = try await database.transaction { connection in
            let invitation = try await pendingInvitation(invitationID, for: me, in: connection)
            let people = try await ContactPairs.lock(invitation.inviterID, me, in: connection)
            if try await ContactPairs.roles(of: me, for: invitation.inviterID, in: connection) != nil {
                throw DomainError.alreadyExists("Contact \(invitation.inviterID)")
            }
            var outbox = try await ContactPairs.insert(
                owner: invitation.inviterID, contact: me, roles: invitation.roles, now: now, in: connection)
            try await connection.query("""
                UPDATE contact_invitations SET status = 'accepted', responded_at = \(now) WHERE id = \(invitationID)
                """)
            outbox.change("contact_invitations", .update, invitationID, owner: invitation.inviterID, at: now)
            outbox.append(try await NotificationStore.outbox([
                NotificationDraft(
                    recipient: invitation.inviterID, type: .contactAdded, title: "Invitation accepted",
                    body: "\(people[me].map(PersonName.display) ?? "Your contact") is now your \(Self.describe(invitation.roles)).",
                    contactID: me),
            ], now: now, in: connection))
            return (try await ContactQueries.summary(of: invitation.inviterID, for: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return summary
    }

    /// Declines an invitation addressed to the caller's phone.
    public func declineInvitation(caller: Caller, invitationID: UUID) async throws {
        let me = try caller.requireUser()
        let now = clock.now()
        let outbox: Outbox = try await database.transaction { connection in
            let invitation = try await pendingInvitation(invitationID, for: me, in: connection)
            try await connection.query("""
                UPDATE contact_invitations SET status = 'declined', responded_at = \(now) WHERE id = \(invitationID)
                """)
            var outbox = Outbox()
            outbox.change("contact_invitations", .update, invitationID, owner: invitation.inviterID, at: now)
            return outbox
        }
        await notifier.deliver(outbox)
    }

    /// The invitation, locked; it must exist, be addressed to `me` and still be pending.
    private func pendingInvitation(_ id: UUID, for me: UserID, in connection: any SQLConnection) async throws -> InvitationSummary {
        guard let row = try await connection.first("""
            SELECT i.id, i.inviter_id, i.invitee_phone, i.is_responder, i.is_dependent, i.status, i.created_at,
                   '' AS first_name, '' AS last_name, '' AS phone
            FROM contact_invitations i WHERE i.id = \(id)
            """ + connection.forUpdate) else { throw DomainError.notFound("Invitation \(id)") }
        let invitation = try ContactQueries.invitation(row)
        guard try await ContactQueries.verifiedPhone(of: me, in: connection) == invitation.inviteePhone else {
            throw DomainError.forbidden("This invitation was sent to another phone number")
        }
        guard invitation.status == .pending else {
            throw DomainError.failedPrecondition("The invitation was already \(invitation.status.rawValue)")
        }
        return invitation
    }
}
