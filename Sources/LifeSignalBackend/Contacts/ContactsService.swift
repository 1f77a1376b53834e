import Foundation
import LifeSignalDomain

/// Contacts and their roles: the rules behind `add-contact-by-qr`, `lookup-qr-code`,
/// `reset-qr-code`, `update-contact-roles`, `remove-contact` and `get-contacts` (invitations
/// by phone are in `ContactsService+Invitations.swift`).
///
/// A relation is two rows with mirrored roles (see ``ContactRoles``); every function writes
/// both in one transaction, so a failure half way leaves neither.
public struct ContactsService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    // MARK: QR codes

    /// Who owns a QR code, so the scanner can confirm the person before adding them.
    public func lookUpQRCode(caller: Caller, qrCodeID: UUID) async throws -> QRCodeOwner {
        _ = try caller.requireUser()
        guard let row = try await database.query("""
            SELECT id, first_name, last_name, phone FROM users WHERE qr_code_id = \(qrCodeID)
            """).first else { throw DomainError.notFound("QR code") }
        return QRCodeOwner(userID: UserID(try row.uuid("id")), name: PersonName.display(row))
    }

    /// Gives the caller a new QR code id; the old one stops working at once.
    public func resetQRCode(caller: Caller) async throws -> UUID {
        let me = try caller.requireUser()
        let now = clock.now()
        let fresh = UUID()
        guard try await database.query("""
            UPDATE users SET qr_code_id = \(fresh), updated_at = \(now) WHERE id = \(me) RETURNING id
            """).first != nil else { throw DomainError.notFound("User \(me)") }
        var outbox = Outbox()
        outbox.change("users", .update, me.rawValue, owner: me, at: now)
        await notifier.deliver(outbox)
        return fresh
    }

    /// Adds the owner of `qrCodeID` as a contact holding `roles` for the caller, and the
    /// caller as the reciprocal contact of theirs. Self-adds are refused
    /// (``DomainError/invalidArgument(_:)``), duplicates too (``DomainError/alreadyExists(_:)``).
    public func addContact(caller: Caller, qrCodeID: UUID, roles: ContactRoles) async throws -> ContactSummary {
        let me = try caller.requireUser()
        let now = clock.now()
        let (summary, outbox): (ContactSummary, Outbox) = try await database.transaction { connection in
            guard let owner = try await connection.first("SELECT id FROM users WHERE qr_code_id = \(qrCodeID)") else {
                throw DomainError.notFound("QR code")
            }
            let contact = UserID(try owner.uuid("id"))
            guard contact != me else { throw DomainError.invalidArgument("You cannot add yourself as a contact") }
            let people = try await ContactPairs.lock(me, contact, in: connection)
            if try await ContactPairs.roles(of: contact, for: me, in: connection) != nil {
                throw DomainError.alreadyExists("Contact \(contact)")
            }
            var outbox = try await ContactPairs.insert(owner: me, contact: contact, roles: roles, now: now, in: connection)
            outbox.append(try await NotificationStore.outbox([
                NotificationDraft(
                    recipient: contact, type: .contactAdded, title: "New contact",
                    body: "\(people[me].map(PersonName.display) ?? "Someone") added you as their \(Self.describe(roles.reciprocal)).",
                    contactID: me),
            ], now: now, in: connection))
            return (try await ContactQueries.summary(of: contact, for: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return summary
    }

    // MARK: Roles and removal

    /// Sets the roles `contact` holds for the caller, and the reciprocal roles on the other
    /// side. Pings the new roles no longer allow are cancelled and their recipients told.
    public func updateRoles(caller: Caller, contact: UserID, roles: ContactRoles) async throws -> ContactSummary {
        let me = try caller.requireUser()
        let now = clock.now()
        let (summary, outbox): (ContactSummary, Outbox) = try await database.transaction { connection in
            let people = try await ContactPairs.lock(me, contact, in: connection)
            let before = try await ContactPairs.requireRoles(of: contact, for: me, in: connection)
            var outbox = Outbox()
            if before != roles {
                outbox = try await ContactPairs.update(owner: me, contact: contact, roles: roles, now: now, in: connection)
                outbox.append(try await ContactPairs.cancelOrphanedPings(me, contact, now: now, in: connection))
                outbox.append(try await NotificationStore.outbox([
                    NotificationDraft(
                        recipient: contact, type: .contactRoleChanged, title: "Roles changed",
                        body: "\(people[me].map(PersonName.display) ?? "A contact") made you their \(Self.describe(roles.reciprocal)).",
                        contactID: me),
                ], now: now, in: connection))
            }
            return (try await ContactQueries.summary(of: contact, for: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return summary
    }

    /// Removes the relation, both sides, and cancels the pending pings between the two.
    public func removeContact(caller: Caller, contact: UserID) async throws {
        let me = try caller.requireUser()
        let now = clock.now()
        let outbox: Outbox = try await database.transaction { connection in
            let people = try await ContactPairs.lock(me, contact, in: connection)
            _ = try await ContactPairs.requireRoles(of: contact, for: me, in: connection)
            var outbox = try await ContactPairs.delete(me, contact, now: now, in: connection)
            outbox.append(try await ContactPairs.cancelOrphanedPings(me, contact, now: now, in: connection))
            outbox.append(try await NotificationStore.outbox([
                NotificationDraft(
                    recipient: contact, type: .contactRemoved, title: "Contact removed",
                    body: "\(people[me].map(PersonName.display) ?? "A contact") removed you from their contacts.", contactID: me),
            ], now: now, in: connection))
            return outbox
        }
        await notifier.deliver(outbox)
    }

    // MARK: Reading

    /// The caller's contacts (with dependents' check-in state) and pending invitations.
    public func contacts(caller: Caller) async throws -> ContactList {
        let me = try caller.requireUser()
        let now = clock.now()
        return try await database.transaction { connection in
            ContactList(
                contacts: try await ContactQueries.summaries(for: me, now: now, in: connection),
                sentInvitations: try await ContactQueries.invitations(sentBy: me, in: connection),
                receivedInvitations: try await ContactQueries.invitations(receivedBy: me, in: connection))
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
