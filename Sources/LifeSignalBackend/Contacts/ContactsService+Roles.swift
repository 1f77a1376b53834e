import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Roles with consent: `update-contact-roles`, `accept-role-request`, `decline-role-request`,
/// `cancel-role-request` (docs/security.md, "Consent").
///
/// Being someone's responder opens their check-ins and alerts, so only they can grant it:
/// asking for it (gaining `isDependent` on my side) opens a request they accept or decline.
/// Everything else one side may do alone: dropping a role narrows what either sees, and making
/// someone my responder opens only my own data, to which my asking is my consent.
extension ContactsService {
    /// Moves the roles `contact` holds for the caller towards `roles`: drops and a new
    /// responder at once on both rows, becoming `contact`'s responder as a request to them.
    /// Pings the new roles no longer allow are cancelled and their recipients told. Dropping
    /// the dependent role asked for withdraws the request.
    public func changeRoles(caller: Caller, contact: UserID, roles: ContactRoles) async throws -> RoleChangeOutcome {
        let me = try caller.requireUser()
        let now = clock.now()
        let (outcome, outbox): (RoleChangeOutcome, Outbox) = try await database.transaction { connection in
            let people = try await ContactPairs.lock(me, contact, in: connection)
            let before = try await ContactPairs.requireRoles(of: contact, for: me, in: connection)
            let asks = roles.isDependent && !before.isDependent
            let applied = try Self.appliedRoles(roles, before: before, contactName: people[contact].map(PersonName.inMessage) ?? "your contact")
            var outbox = Outbox()
            if applied != before {
                outbox.append(try await ContactPairs.update(owner: me, contact: contact, roles: applied, now: now, in: connection))
                outbox.append(try await ContactPairs.cancelOrphanedPings(me, contact, now: now, in: connection))
                if applied.isResponder && !before.isResponder {
                    // They asked to become my responder and now are: nothing left to answer.
                    outbox.append(try await RoleRequestStore.withdraw(requester: contact, owner: me, now: now, in: connection))
                }
                outbox.append(
                    try await NotificationStore.outbox(
                        [
                            NotificationDraft(
                                recipient: contact, type: .contactRoleChanged, title: "Roles changed",
                                body: Self.change(by: people[me].map(PersonName.inMessage) ?? "A contact", from: before, to: applied),
                                contactID: me)
                        ], now: now, in: connection))
            }
            var pending: RoleRequest?
            if asks {
                let (request, opened) = try await RoleRequestStore.open(requester: me, owner: contact, now: now, in: connection)
                pending = request
                outbox.append(opened)
            } else if !roles.isDependent {
                outbox.append(try await RoleRequestStore.withdraw(requester: me, owner: contact, now: now, in: connection))
            }
            let summary = try await ContactQueries.summary(of: contact, for: me, now: now, in: connection)
            return (RoleChangeOutcome(contact: summary, pendingRequest: pending), outbox)
        }
        await notifier.deliver(outbox)
        return outcome
    }

    /// ``changeRoles(caller:contact:roles:)``'s roles in force, for callers written before
    /// role requests.
    public func updateRoles(caller: Caller, contact: UserID, roles: ContactRoles) async throws -> ContactSummary {
        try await changeRoles(caller: caller, contact: contact, roles: roles).contact
    }

    /// The owner of request `requestID` makes its requester their responder (both rows), and
    /// the requester is told. Returns the requester as the owner's contact now. Anyone else,
    /// or an unknown id, is ``DomainError/notFound(_:)`` alike.
    public func acceptRoleRequest(caller: Caller, requestID: UUID) async throws -> ContactSummary {
        let me = try caller.requireUser()
        let now = clock.now()
        let (summary, outbox): (ContactSummary, Outbox) = try await database.transaction { connection in
            let (requester, people) = try await Self.lockRequest(requestID, ownedBy: me, in: connection)
            guard let before = try await ContactPairs.roles(of: requester, for: me, in: connection),
                let taken = try await RoleRequestStore.take(requestID, where: "owner_id = \(me)", now: now, in: connection)
            else { throw Self.unknownRequest }
            var outbox = taken.outbox
            let after = try ContactRoles(isResponder: true, isDependent: before.isDependent)
            if after != before {
                outbox.append(try await ContactPairs.update(owner: me, contact: requester, roles: after, now: now, in: connection))
            }
            outbox.append(
                try await NotificationStore.outbox(
                    [
                        NotificationDraft(
                            recipient: requester, type: .contactRoleChanged, title: "Request accepted",
                            body: "\(people[me].map(PersonName.inMessage) ?? "Your contact") accepted: you are now their responder.",
                            contactID: me)
                    ], now: now, in: connection))
            return (try await ContactQueries.summary(of: requester, for: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return summary
    }

    /// The owner of request `requestID` declines it, and the requester is told.
    public func declineRoleRequest(caller: Caller, requestID: UUID) async throws {
        let me = try caller.requireUser()
        let now = clock.now()
        let outbox: Outbox = try await database.transaction { connection in
            let (requester, people) = try await Self.lockRequest(requestID, ownedBy: me, in: connection)
            guard let taken = try await RoleRequestStore.take(requestID, where: "owner_id = \(me)", now: now, in: connection)
            else { throw Self.unknownRequest }
            var outbox = taken.outbox
            outbox.append(
                try await NotificationStore.outbox(
                    [
                        NotificationDraft(
                            recipient: requester, type: .contactRoleChanged, title: "Request declined",
                            body: "\(people[me].map(PersonName.inMessage) ?? "Your contact") declined your request to become their responder.",
                            contactID: me)
                    ], now: now, in: connection))
            return outbox
        }
        await notifier.deliver(outbox)
    }

    /// The requester of `requestID` withdraws it.
    public func cancelRoleRequest(caller: Caller, requestID: UUID) async throws {
        let me = try caller.requireUser()
        let now = clock.now()
        let outbox: Outbox = try await database.transaction { connection in
            guard let parties = try await RoleRequestStore.parties(of: requestID, in: connection), parties.requester == me else {
                throw Self.unknownRequest
            }
            try await ContactPairs.lock(me, parties.owner, in: connection)
            guard let taken = try await RoleRequestStore.take(requestID, where: "requester_id = \(me)", now: now, in: connection)
            else { throw Self.unknownRequest }
            return taken.outbox
        }
        await notifier.deliver(outbox)
    }

    /// The one answer for a request that is not there and one the caller may not answer.
    static let unknownRequest = DomainError.notFound("Role request")

    /// The requester of a request `me` owns, with both people locked (the request itself is
    /// taken after the lock, so a concurrent answer or removal finds it gone).
    private static func lockRequest(_ id: UUID, ownedBy me: UserID, in connection: any SQLConnection) async throws -> (UserID, [UserID: SQLRow]) {
        guard let parties = try await RoleRequestStore.parties(of: id, in: connection), parties.owner == me else { throw unknownRequest }
        return (parties.requester, try await ContactPairs.lock(parties.requester, me, in: connection))
    }

    /// The roles applied at once: `wanted` without a dependent the caller did not already
    /// have (that waits for the contact's consent). Leaving no role at all is refused.
    static func appliedRoles(_ wanted: ContactRoles, before: ContactRoles, contactName: String) throws -> ContactRoles {
        do {
            return try ContactRoles(isResponder: wanted.isResponder, isDependent: wanted.isDependent && before.isDependent)
        } catch {
            throw DomainError.failedPrecondition(
                """
                Becoming \(contactName)'s responder waits for their consent, and dropping your other role now would leave none: \
                ask first, then drop it once they accept
                """)
        }
    }

    /// What the contact is told of a change of `by`'s roles from `before` to `after`, in their
    /// own terms (``ContactRoles/reciprocal``).
    static func change(by name: String, from before: ContactRoles, to after: ContactRoles) -> String {
        var sentences: [String] = []
        if after.isResponder && !before.isResponder { sentences.append("\(name) made you their responder.") }
        if !after.isResponder && before.isResponder { sentences.append("\(name) no longer has you as their responder.") }
        if !after.isDependent && before.isDependent { sentences.append("\(name) is no longer your responder.") }
        return sentences.joined(separator: " ")
    }
}
