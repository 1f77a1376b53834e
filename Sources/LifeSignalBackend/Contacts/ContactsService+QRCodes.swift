import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// QR codes: `get-qr-code`, `reset-qr-code`, `lookup-qr-code` and `add-contact-by-qr`
/// (the rules of a code are ``QRCodes``').
extension ContactsService {
    /// The caller's code as their screen shows it: the current one while it links, else a
    /// fresh one valid for the configured lifetime.
    public func qrCode(caller: Caller) async throws -> QRCode {
        let me = try caller.requireUser()
        let now = clock.now()
        let lifetime = qrCodeLifetime
        let (code, outbox) = try await database.transaction { connection in
            try await QRCodes.current(of: me, lifetime: lifetime, now: now, in: connection)
        }
        await notifier.deliver(outbox)
        return code
    }

    /// Gives the caller a fresh code; the old one stops linking at once.
    public func newQRCode(caller: Caller) async throws -> QRCode {
        let me = try caller.requireUser()
        let now = clock.now()
        let lifetime = qrCodeLifetime
        let (code, outbox) = try await database.transaction { connection in
            try await QRCodes.mint(for: me, lifetime: lifetime, now: now, in: connection)
        }
        await notifier.deliver(outbox)
        return code
    }

    /// ``newQRCode(caller:)``'s id, for callers written before codes expired.
    public func resetQRCode(caller: Caller) async throws -> UUID {
        try await newQRCode(caller: caller).id
    }

    /// Who owns a code that links now, so the scanner can confirm the person before adding
    /// them: their name and id, nothing more. An unknown, expired or spent code is
    /// ``DomainError/notFound(_:)`` alike.
    public func lookUpQRCode(caller: Caller, qrCodeID: UUID) async throws -> QRCodeOwner {
        _ = try caller.requireUser()
        let now = clock.now()
        guard
            let row = try await database.transaction({ connection in
                try await QRCodes.owner(of: qrCodeID, now: now, in: connection)
            })
        else { throw QRCodes.unknown }
        return QRCodeOwner(userID: UserID(try row.uuid("id")), name: PersonName.display(row))
    }

    /// Adds the owner of `qrCodeID` as a contact holding `roles` for the caller, and the
    /// caller as the reciprocal contact of theirs, at once: the owner showing the code is their
    /// consent. The code is spent. A code that does not link now is
    /// ``DomainError/notFound(_:)``; self-adds are ``DomainError/invalidArgument(_:)``,
    /// duplicates ``DomainError/alreadyExists(_:)``, and neither spends the code.
    public func addContact(caller: Caller, qrCodeID: UUID, roles: ContactRoles) async throws -> ContactSummary {
        let me = try caller.requireUser()
        let now = clock.now()
        let (summary, outbox): (ContactSummary, Outbox) = try await database.transaction { connection in
            guard let owner = try await QRCodes.owner(of: qrCodeID, now: now, in: connection) else { throw QRCodes.unknown }
            let contact = UserID(try owner.uuid("id"))
            guard contact != me else { throw DomainError.invalidArgument("You cannot add yourself as a contact") }
            let people = try await ContactPairs.lock(me, contact, in: connection)
            // Under the owner's lock: a scan that got here first has spent the code.
            var outbox = try await QRCodes.spend(qrCodeID, of: contact, now: now, in: connection)
            if try await ContactPairs.roles(of: contact, for: me, in: connection) != nil {
                throw DomainError.alreadyExists("Contact \(contact)")
            }
            outbox.append(try await ContactPairs.insert(owner: me, contact: contact, roles: roles, now: now, in: connection))
            outbox.append(
                try await NotificationStore.outbox(
                    [
                        NotificationDraft(
                            recipient: contact, type: .contactAdded, title: "New contact",
                            body: "\(people[me].map(PersonName.inMessage) ?? "Someone") added you as their \(Self.describe(roles.reciprocal)).",
                            contactID: me)
                    ], now: now, in: connection))
            return (try await ContactQueries.summary(of: contact, for: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return summary
    }
}
