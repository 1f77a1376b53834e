import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Contacts and their roles: the rules behind `remove-contact` and `get-contacts` here; QR
/// codes (`get-qr-code`, `add-contact-by-qr`, …) in `ContactsService+QRCodes.swift`, roles and
/// their requests in `ContactsService+Roles.swift`, invitations by phone in
/// `ContactsService+Invitations.swift`.
///
/// A relation is two rows with mirrored roles (see ``ContactRoles``); every function writes
/// both in one transaction, so a failure half way leaves neither.
public struct ContactsService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    /// How long a shown QR code links (``QRCodes``).
    var qrCodeLifetime: TimeInterval = QRCodes.defaultLifetime
    /// Invitations a day per inviter, invitation SMS a day per number (``InvitationLimits``).
    var invitationLimits = InvitationLimits()

    // MARK: Removal

    /// Removes the relation, both sides, and cancels the pending pings and role requests
    /// between the two.
    public func removeContact(caller: Caller, contact: UserID) async throws {
        let me = try caller.requireUser()
        let now = clock.now()
        let outbox: Outbox = try await database.transaction { connection in
            let people = try await ContactPairs.lock(me, contact, in: connection)
            _ = try await ContactPairs.requireRoles(of: contact, for: me, in: connection)
            var outbox = try await ContactPairs.delete(me, contact, now: now, in: connection)
            outbox.append(try await ContactPairs.cancelOrphanedPings(me, contact, now: now, in: connection))
            outbox.append(try await RoleRequestStore.deleteBetween(me, contact, now: now, in: connection))
            outbox.append(
                try await NotificationStore.outbox(
                    [
                        NotificationDraft(
                            recipient: contact, type: .contactRemoved, title: "Contact removed",
                            body: "\(people[me].map(PersonName.inMessage) ?? "A contact") removed you from their contacts.", contactID: me)
                    ], now: now, in: connection))
            return outbox
        }
        await notifier.deliver(outbox)
    }

    // MARK: Reading

    /// The caller's contacts (with dependents' check-in state), pending invitations and
    /// pending role requests, both ways.
    public func contacts(caller: Caller) async throws -> ContactList {
        let me = try caller.requireUser()
        let now = clock.now()
        return try await database.transaction { connection in
            ContactList(
                contacts: try await ContactQueries.summaries(for: me, now: now, in: connection),
                sentInvitations: try await ContactQueries.invitations(sentBy: me, in: connection),
                receivedInvitations: try await ContactQueries.invitations(receivedBy: me, in: connection),
                receivedRoleRequests: try await RoleRequestStore.requests(received: true, by: me, in: connection),
                sentRoleRequests: try await RoleRequestStore.requests(received: false, by: me, in: connection))
        }
    }

    static func describe(_ roles: ContactRoles) -> String {
        switch (roles.isResponder, roles.isDependent) {
        case (true, true): "responder and dependent"
        case (true, false): "responder"
        default: "dependent"
        }
    }
}
