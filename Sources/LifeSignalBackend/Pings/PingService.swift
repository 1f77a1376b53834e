import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Pings: a responder asks a dependent "are you OK?". The rules behind `ping-dependent`,
/// `respond-to-ping`, `respond-to-all-pings` and `clear-ping`.
///
/// A ping is a row in `pings`; the Responders and Dependents screens' incoming and outgoing
/// flags are read from the pending rows, so the two sides can never disagree (the original
/// kept a flag on each side and left the senders' set after "respond to all").
public struct PingService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    /// Pings `dependent`, who must be the caller's dependent. A ping already pending from the
    /// caller is ``DomainError/alreadyExists(_:)``. Returns the ping's id.
    @discardableResult
    public func ping(caller: Caller, dependent: UserID) async throws -> UUID {
        let me = try caller.requireUser()
        let now = clock.now()
        let (id, outbox): (UUID, Outbox) = try await database.transaction { connection in
            let people = try await ContactPairs.lock(me, dependent, in: connection)
            guard try await ContactPairs.requireRoles(of: dependent, for: me, in: connection).isDependent else {
                throw DomainError.forbidden("Only a responder can ping; this contact is not your dependent")
            }
            let id = UUID()
            if try await connection.first(
                """
                SELECT id FROM pings WHERE sender_id = \(me) AND recipient_id = \(dependent) AND status = 'pending'
                """) != nil
            {
                throw DomainError.alreadyExists("A pending ping to this contact")
            }
            do {
                try await connection.query(
                    """
                    INSERT INTO pings (id, sender_id, recipient_id, status, sent_at) VALUES (\(id), \(me), \(dependent), 'pending', \(now))
                    """)
            } catch let error as DatabaseError where error.isUniqueViolation {
                throw DomainError.alreadyExists("A pending ping to this contact")
            }
            let sender = people[me].map(PersonName.inMessage) ?? "A responder"
            let recipient = people[dependent].map(PersonName.inMessage) ?? "your dependent"
            var outbox = try await NotificationStore.outbox(
                [
                    NotificationDraft(
                        recipient: dependent, type: .pingReceived, title: "New Ping",
                        body: "\(sender) is checking on you.", contactID: me),
                    NotificationDraft(
                        recipient: me, type: .pingSent, title: "Ping sent",
                        body: "You pinged \(recipient).", contactID: dependent),
                ], now: now, in: connection)
            outbox.change("pings", .insert, id, owner: dependent, at: now)
            outbox.change("pings", .insert, id, owner: me, at: now)
            return (id, outbox)
        }
        await notifier.deliver(outbox)
        return id
    }

    /// Answers the pending ping from `responder`; none pending is ``DomainError/notFound(_:)``.
    public func respond(caller: Caller, to responder: UserID) async throws {
        let me = try caller.requireUser()
        try await resolve(recipient: me, sender: responder, status: .responded, notification: .pingResponded)
    }

    /// Answers every pending ping to the caller, clearing every sender's outgoing ping too.
    /// Returns how many were answered (zero is fine).
    @discardableResult
    public func respondToAll(caller: Caller) async throws -> Int {
        let me = try caller.requireUser()
        let now = clock.now()
        let (count, outbox): (Int, Outbox) = try await database.transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE pings SET status = 'responded', resolved_at = \(now)
                WHERE recipient_id = \(me) AND status = 'pending' RETURNING id, sender_id
                """)
            guard !rows.isEmpty else { return (0, Outbox()) }
            let name =
                try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(me)")
                .map(PersonName.inMessage) ?? "Your dependent"
            var drafts = try rows.map { row in
                NotificationDraft(
                    recipient: UserID(try row.uuid("sender_id")), type: .pingResponded, title: "Ping answered",
                    body: "\(name) responded to your ping.", contactID: me)
            }
            drafts.append(
                NotificationDraft(
                    recipient: me, type: .pingClearAll, title: "Pings answered",
                    body: "You responded to \(rows.count) ping(s)."))
            var outbox = try await NotificationStore.outbox(drafts, now: now, in: connection)
            for row in rows {
                outbox.change("pings", .update, try row.uuid("id"), owner: me, at: now)
                outbox.change("pings", .update, try row.uuid("id"), owner: UserID(try row.uuid("sender_id")), at: now)
            }
            return (rows.count, outbox)
        }
        await notifier.deliver(outbox)
        return count
    }

    /// Withdraws the caller's pending ping to `dependent`; none pending is
    /// ``DomainError/notFound(_:)``.
    public func clear(caller: Caller, dependent: UserID) async throws {
        let me = try caller.requireUser()
        try await resolve(recipient: dependent, sender: me, status: .cancelled, notification: .pingCancelled)
    }

    /// Ends the pending ping from `sender` to `recipient` and tells the other party.
    private func resolve(recipient: UserID, sender: UserID, status: PingStatus, notification: NotificationType) async throws {
        let now = clock.now()
        let caller = status == .responded ? recipient : sender
        let other = status == .responded ? sender : recipient
        let outbox: Outbox = try await database.transaction { connection in
            guard
                let row = try await connection.first(
                    """
                    UPDATE pings SET status = \(status.rawValue), resolved_at = \(now)
                    WHERE sender_id = \(sender) AND recipient_id = \(recipient) AND status = 'pending' RETURNING id
                    """)
            else { throw DomainError.notFound("Pending ping") }
            let name =
                try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(caller)")
                .map(PersonName.inMessage) ?? "Your contact"
            let draft =
                status == .responded
                ? NotificationDraft(
                    recipient: other, type: notification, title: "Ping answered",
                    body: "\(name) responded to your ping.", contactID: caller)
                : NotificationDraft(
                    recipient: other, type: notification, title: "Ping cancelled",
                    body: "\(name) cancelled their ping.", contactID: caller)
            var outbox = try await NotificationStore.outbox([draft], now: now, in: connection)
            outbox.change("pings", .update, try row.uuid("id"), owner: recipient, at: now)
            outbox.change("pings", .update, try row.uuid("id"), owner: sender, at: now)
            return outbox
        }
        await notifier.deliver(outbox)
    }
}
