import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The two halves of a relation, always written together inside the caller's transaction.
///
/// Every change to a pair first locks both people's `users` rows in id order (PostgreSQL),
/// so concurrent writes on the same pair — A adds B while B adds A, or a role change racing a
/// removal — run one after the other and never leave one half without the other; the fixed
/// order means two such writers cannot deadlock. SQLite's transactions are serialised anyway.
enum ContactPairs {
    /// Locks and returns both people (`id, first_name, last_name, phone`); a missing person is
    /// ``DomainError/notFound(_:)``.
    @discardableResult
    static func lock(_ a: UserID, _ b: UserID, in connection: any SQLConnection) async throws -> [UserID: SQLRow] {
        let rows = try await connection.query(
            """
            SELECT id, first_name, last_name, phone FROM users WHERE id IN (\(a), \(b)) ORDER BY id
            """ + connection.forUpdate)
        var people: [UserID: SQLRow] = [:]
        for row in rows { people[UserID(try row.uuid("id"))] = row }
        for id in [a, b] where people[id] == nil { throw DomainError.notFound("User \(id)") }
        return people
    }

    /// The roles `contact` holds for `owner`, or `nil` when they are not contacts.
    static func roles(of contact: UserID, for owner: UserID, in connection: any SQLConnection) async throws -> ContactRoles? {
        guard
            let row = try await connection.first(
                """
                SELECT is_responder, is_dependent FROM contacts WHERE user_id = \(owner) AND contact_id = \(contact)
                """)
        else { return nil }
        return try ContactRoles(isResponder: try row.bool("is_responder"), isDependent: try row.bool("is_dependent"))
    }

    /// Like ``roles(of:for:in:)`` but a missing relation is ``DomainError/notFound(_:)``.
    static func requireRoles(of contact: UserID, for owner: UserID, in connection: any SQLConnection) async throws -> ContactRoles {
        guard let roles = try await roles(of: contact, for: owner, in: connection) else {
            throw DomainError.notFound("Contact \(contact)")
        }
        return roles
    }

    /// Inserts both halves: `contact` holds `roles` for `owner`, and `owner` the reciprocal.
    static func insert(owner: UserID, contact: UserID, roles: ContactRoles, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        guard owner != contact else { throw DomainError.invalidArgument("You cannot add yourself as a contact") }
        var outbox = Outbox()
        do {
            for (user, other, side) in [(owner, contact, roles), (contact, owner, roles.reciprocal)] {
                let row = try await connection.first(
                    """
                    INSERT INTO contacts (user_id, contact_id, is_responder, is_dependent, notify_on_expiry, added_at, updated_at)
                    VALUES (\(user), \(other), \(side.isResponder), \(side.isDependent), \(true), \(now), \(now)) RETURNING id
                    """)
                if let id = row?.optionalUUID("id") { outbox.change("contacts", .insert, id, owner: user, at: now) }
            }
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw DomainError.alreadyExists("Contact \(contact)")
        }
        return outbox
    }

    /// Sets both halves' roles; the relation must exist.
    static func update(owner: UserID, contact: UserID, roles: ContactRoles, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        var outbox = Outbox()
        for (user, other, side) in [(owner, contact, roles), (contact, owner, roles.reciprocal)] {
            guard
                let row = try await connection.first(
                    """
                    UPDATE contacts SET is_responder = \(side.isResponder), is_dependent = \(side.isDependent), updated_at = \(now)
                    WHERE user_id = \(user) AND contact_id = \(other) RETURNING id
                    """)
            else { throw DomainError.notFound("Contact \(contact)") }
            outbox.change("contacts", .update, try row.uuid("id"), owner: user, at: now)
        }
        return outbox
    }

    /// Deletes both halves; returns nothing to report when there was no relation.
    static func delete(_ a: UserID, _ b: UserID, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        var outbox = Outbox()
        let rows = try await connection.query(
            """
            DELETE FROM contacts WHERE (user_id = \(a) AND contact_id = \(b)) OR (user_id = \(b) AND contact_id = \(a))
            RETURNING id, user_id
            """)
        for row in rows { outbox.change("contacts", .delete, try row.uuid("id"), owner: UserID(try row.uuid("user_id")), at: now) }
        return outbox
    }

    /// Cancels the pending pings between `a` and `b` whose sender no longer has the recipient
    /// as a dependent (after a role change or a removal), telling each recipient.
    static func cancelOrphanedPings(_ a: UserID, _ b: UserID, now: Date, in connection: any SQLConnection) async throws -> Outbox {
        let rows = try await connection.query(
            """
            UPDATE pings SET status = 'cancelled', resolved_at = \(now)
            WHERE status = 'pending' AND ((sender_id = \(a) AND recipient_id = \(b)) OR (sender_id = \(b) AND recipient_id = \(a)))
              AND NOT EXISTS (SELECT 1 FROM contacts c WHERE c.user_id = pings.sender_id
                              AND c.contact_id = pings.recipient_id AND c.is_dependent = \(true))
            RETURNING id, sender_id, recipient_id
            """)
        var outbox = Outbox()
        var drafts: [NotificationDraft] = []
        for row in rows {
            let sender = UserID(try row.uuid("sender_id"))
            let recipient = UserID(try row.uuid("recipient_id"))
            outbox.change("pings", .update, try row.uuid("id"), owner: recipient, at: now)
            outbox.change("pings", .update, try row.uuid("id"), owner: sender, at: now)
            drafts.append(
                NotificationDraft(
                    recipient: recipient, type: .pingCancelled, title: "Ping cancelled",
                    body: "A ping was cancelled because the contact's roles changed.", contactID: sender))
        }
        outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
        return outbox
    }
}
