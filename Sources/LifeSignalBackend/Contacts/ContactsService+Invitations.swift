import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Invitations by phone: `invite-contact`, `accept-invitation`, `decline-invitation`.
///
/// The invitee need not have an account yet; an invitation waits for whoever signs in with
/// that (verified) number. Accepting creates the pair exactly as a QR add does.
///
/// **Reaching the invitee.** A number with no account gets an SMS (issue 19 item 1), queued in
/// the delivery ledger in the invitation's own transaction and sent after the commit, so an
/// invitation that is refused or rolled back sends nothing. It says only who invites (their
/// first name, as the `/i/` page does: the number may not be whom the inviter meant) and for
/// what role, and carries the `/i/<token>` link when the server makes links. A number that
/// already has an account gets the in-app notification instead, which the ledger carries on
/// the channels that person chose: as a non-urgent message it reaches their phone by SMS only
/// if their SMS choice is `all` (the default, `urgent`, keeps it in the app and push). They
/// answer in the app, where the invitation is listed, so a link would add nothing.
///
/// **Bounds** (``InvitationLimits``): invitations a day per inviter, refused past it, and
/// invitation SMS a day per number, silently not sent past it.
extension ContactsService {
    /// Invites the person with `phone` to hold `roles` for the caller.
    public func invite(caller: Caller, phone text: String, roles: ContactRoles) async throws -> InvitationSummary {
        let me = try caller.requireUser()
        let phone = try PhoneNumber(text)
        let now = clock.now()
        let limits = invitationLimits
        let (invitation, outbox): (InvitationSummary, Outbox) = try await database.transaction { connection in
            // Locked, so one person's concurrent invitations are counted one after another.
            guard
                let inviter = try await connection.first(
                    "SELECT id, first_name, last_name, phone FROM users WHERE id = \(me)" + connection.forUpdate)
            else {
                throw DomainError.notFound("User \(me)")
            }
            if try await ContactQueries.verifiedPhone(of: me, in: connection) == phone.e164 {
                throw DomainError.invalidArgument("You cannot invite yourself")
            }
            let email = try await connection.first("SELECT email FROM auth_users WHERE id = \(me)")?.optionalString("email")
            let sender = PaidChannelGate.identity(me, phone: inviter.optionalString("phone"), email: email)
            try await Self.checkInvitationCap(of: sender, limit: limits.invitationsPerInviterPerDay, now: now, in: connection)
            let invitee = try await connection.first("SELECT id FROM auth_users WHERE phone = \(phone.digits)")
                .map { UserID(try $0.uuid("id")) }
            if let invitee, try await ContactPairs.roles(of: invitee, for: me, in: connection) != nil {
                throw DomainError.alreadyExists("Contact \(phone.e164)")
            }
            let id = UUID()
            do {
                try await connection.query(
                    """
                    INSERT INTO contact_invitations (id, inviter_id, invitee_phone, is_responder, is_dependent, status, created_at)
                    VALUES (\(id), \(me), \(phone.e164), \(roles.isResponder), \(roles.isDependent), 'pending', \(now))
                    """)
            } catch let error as DatabaseError where error.isUniqueViolation {
                throw DomainError.alreadyExists("A pending invitation to \(phone.e164)")
            }
            var outbox = Outbox()
            outbox.change("contact_invitations", .insert, id, owner: me, at: now)
            if let invitee {
                outbox.append(
                    try await NotificationStore.outbox(
                        [
                            NotificationDraft(
                                recipient: invitee, type: .system, title: "Contact invitation",
                                // They never agreed to hear from the inviter: no word of the
                                // inviter's here (it may go by SMS); the app's list names them.
                                body: "Someone who has your number invited you to be their \(Self.describe(roles)). Open LifeSignal to see who.",
                                contactID: me)
                        ], now: now, in: connection))
            } else if let sms = try await InvitationDelivery.enqueue(
                invitation: id, phone: phone.e164, roles: roles, sender: sender, perNumberLimit: limits.smsPerNumberPerDay,
                now: now, in: connection)
            {
                outbox.deliveries.append(sms)
            }
            let summary = InvitationSummary(
                id: id, inviterID: me, inviterName: PersonName.display(inviter), inviteePhone: phone.e164,
                roles: roles, status: .pending, sentAt: now)
            return (summary, outbox)
        }
        await notifier.deliver(outbox)
        return invitation
    }

    /// Refuses an invitation past ``InvitationLimits/invitationsPerInviterPerDay``, telling the
    /// caller when the day's window ends. Counts every invitation, SMS or not, so the answer
    /// never says whether a number has an account; counted by the inviter's verified phone
    /// (``SendCounter``), so deleting the account and signing up again starts no new count.
    static func checkInvitationCap(of sender: String, limit: Int, now: Date, in connection: any SQLConnection) async throws {
        try await SendCounter.require("invitations:" + sender, limit: limit, window: InvitationLimits.window, now: now, in: connection)
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
            try await connection.query(
                """
                UPDATE contact_invitations SET status = 'accepted', responded_at = \(now) WHERE id = \(invitationID)
                """)
            outbox.change("contact_invitations", .update, invitationID, owner: invitation.inviterID, at: now)
            outbox.append(
                try await NotificationStore.outbox(
                    [
                        NotificationDraft(
                            recipient: invitation.inviterID, type: .contactAdded, title: "Invitation accepted",
                            body: "\(people[me].map(PersonName.inMessage) ?? "Your contact") is now your \(Self.describe(invitation.roles)).",
                            contactID: me)
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
            try await connection.query(
                """
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
        guard
            let row = try await connection.first(
                """
                SELECT i.id, i.inviter_id, i.invitee_phone, i.is_responder, i.is_dependent, i.status, i.created_at,
                       '' AS first_name, '' AS last_name, '' AS phone
                FROM contact_invitations i WHERE i.id = \(id)
                """ + connection.forUpdate)
        else { throw DomainError.notFound("Invitation \(id)") }
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
