import Foundation
import LifeSignalDomain

/// SOS alerts: the rules behind `trigger-alert`, `cancel-alert`, `get-active-alert` and
/// `respond-to-alert`. Every responder is told when an alert starts and when it ends.
public struct AlertService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    /// Raises an alert for the caller. One already active is
    /// ``DomainError/failedPrecondition(_:)`` (the seeds' `alreadyActive`).
    public func trigger(caller: Caller) async throws -> AlertRecord {
        let me = try caller.requireUser()
        let now = clock.now()
        let (alert, outbox): (AlertRecord, Outbox) = try await database.transaction { connection in
            guard let person = try await connection.first(
                "SELECT id, first_name, last_name, phone FROM users WHERE id = \(me)" + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            if try await connection.first("SELECT id FROM alerts WHERE user_id = \(me) AND status = 'active'") != nil {
                throw DomainError.failedPrecondition("An alert is already active")
            }
            let id = UUID()
            do {
                try await connection.query("""
                    INSERT INTO alerts (id, user_id, status, activated_at) VALUES (\(id), \(me), 'active', \(now))
                    """)
            } catch let error as DatabaseError where error.isUniqueViolation {
                throw DomainError.failedPrecondition("An alert is already active")
            }
            let name = PersonName.display(person)
            var drafts = try await Self.responders(of: me, in: connection).map {
                NotificationDraft(recipient: $0, type: .alertActivatedReceived, title: "ALERT: \(name) needs help!",
                                  body: "\(name) raised an emergency alert.", contactID: me)
            }
            drafts.append(NotificationDraft(recipient: me, type: .alertActivatedSent, title: "Alert sent",
                                            body: "Your responders were alerted (\(drafts.count))."))
            var outbox = try await NotificationStore.outbox(drafts, now: now, in: connection)
            outbox.change("alerts", .insert, id, owner: me, at: now)
            return (AlertRecord(id: id, userID: me, status: .active, activatedAt: now, resolvedAt: nil, responses: []), outbox)
        }
        await notifier.deliver(outbox)
        return alert
    }

    /// Ends the caller's active alert (the one with `alertID`, when given). None active — or
    /// not that one — is ``DomainError/notFound(_:)`` (the seeds' `notActive`).
    public func cancel(caller: Caller, alertID: UUID? = nil) async throws -> AlertRecord {
        let me = try caller.requireUser()
        let now = clock.now()
        let (alert, outbox): (AlertRecord, Outbox) = try await database.transaction { connection in
            guard let person = try await connection.first(
                "SELECT id, first_name, last_name, phone FROM users WHERE id = \(me)" + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            guard let active = try await Self.activeAlert(of: me, in: connection), alertID == nil || alertID == active.id else {
                throw DomainError.notFound("Active alert")
            }
            try await connection.query("""
                UPDATE alerts SET status = 'resolved', resolved_at = \(now), resolved_by = \(me) WHERE id = \(active.id)
                """)
            let name = PersonName.display(person)
            var drafts = try await Self.responders(of: me, in: connection).map {
                NotificationDraft(recipient: $0, type: .alertCancelledReceived, title: "Alert cancelled",
                                  body: "\(name) cancelled their emergency alert.", contactID: me)
            }
            drafts.append(NotificationDraft(recipient: me, type: .alertCancelledSent, title: "Alert cancelled",
                                            body: "Your responders were told the alert is over."))
            var outbox = try await NotificationStore.outbox(drafts, now: now, in: connection)
            outbox.change("alerts", .update, active.id, owner: me, at: now)
            var resolved = active
            resolved.status = .resolved
            resolved.resolvedAt = now
            return (resolved, outbox)
        }
        await notifier.deliver(outbox)
        return alert
    }

    /// The active alert of `user` (the caller by default), or `nil`. Another person's alert is
    /// visible only to their responders.
    public func activeAlert(caller: Caller, of user: UserID? = nil) async throws -> AlertRecord? {
        let me = try caller.requireUser()
        let owner = user ?? me
        return try await database.transaction { connection in
            if owner != me, try await ContactPairs.roles(of: owner, for: me, in: connection)?.isDependent != true {
                throw DomainError.forbidden("Only a responder of this person may see their alerts")
            }
            return try await Self.activeAlert(of: owner, in: connection)
        }
    }

    /// Records that the caller, a responder of the alert's owner, is on it; the owner is told.
    public func respond(caller: Caller, alertID: UUID) async throws -> AlertResponse {
        let me = try caller.requireUser()
        let now = clock.now()
        let (response, outbox): (AlertResponse, Outbox) = try await database.transaction { connection in
            guard let alert = try await connection.first(
                "SELECT id, user_id, status FROM alerts WHERE id = \(alertID)" + connection.forUpdate)
            else { throw DomainError.notFound("Alert \(alertID)") }
            let owner = UserID(try alert.uuid("user_id"))
            guard try await ContactPairs.roles(of: owner, for: me, in: connection)?.isDependent == true else {
                throw DomainError.forbidden("Only a responder of this person may respond to their alert")
            }
            guard try alert.string("status") == AlertStatus.active.rawValue else {
                throw DomainError.failedPrecondition("The alert is no longer active")
            }
            if try await connection.first("""
                SELECT 1 AS done FROM alert_responses WHERE alert_id = \(alertID) AND responder_id = \(me)
                """) != nil { throw DomainError.alreadyExists("Your response to this alert") }
            try await connection.query("""
                INSERT INTO alert_responses (alert_id, responder_id, responded_at) VALUES (\(alertID), \(me), \(now))
                """)
            guard let responder = try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(me)") else {
                throw DomainError.notFound("User \(me)")
            }
            let name = PersonName.display(responder)
            var outbox = try await NotificationStore.outbox([
                NotificationDraft(recipient: owner, type: .systemSuccess, title: "Help is coming",
                                  body: "\(name) responded to your alert.", contactID: me),
            ], now: now, in: connection)
            outbox.change("alert_responses", .insert, alertID, owner: owner, at: now)
            return (AlertResponse(responderID: me, responderName: name, respondedAt: now), outbox)
        }
        await notifier.deliver(outbox)
        return response
    }

    /// The alert history of the caller, newest first, with responses.
    public func history(caller: Caller, limit: Int = 50) async throws -> [AlertRecord] {
        let me = try caller.requireUser()
        return try await database.transaction { connection in
            var alerts: [AlertRecord] = []
            for row in try await connection.query("""
                SELECT id FROM alerts WHERE user_id = \(me) ORDER BY activated_at DESC LIMIT \(max(1, min(limit, 500)))
                """) {
                if let alert = try await Self.alert(try row.uuid("id"), in: connection) { alerts.append(alert) }
            }
            return alerts
        }
    }

    static func activeAlert(of user: UserID, in connection: any SQLConnection) async throws -> AlertRecord? {
        guard let row = try await connection.first("SELECT id FROM alerts WHERE user_id = \(user) AND status = 'active'") else {
            return nil
        }
        return try await alert(try row.uuid("id"), in: connection)
    }

    static func alert(_ id: UUID, in connection: any SQLConnection) async throws -> AlertRecord? {
        guard let row = try await connection.first("""
            SELECT id, user_id, status, activated_at, resolved_at FROM alerts WHERE id = \(id)
            """) else { return nil }
        let responses = try await connection.query("""
            SELECT r.responder_id, r.responded_at, u.first_name, u.last_name, u.phone
            FROM alert_responses r JOIN users u ON u.id = r.responder_id
            WHERE r.alert_id = \(id) ORDER BY r.responded_at, r.responder_id
            """).map { row in
            AlertResponse(responderID: UserID(try row.uuid("responder_id")), responderName: PersonName.display(row),
                          respondedAt: try row.date("responded_at"))
        }
        let statusName = try row.string("status")
        guard let status = AlertStatus(rawValue: statusName) else { throw DatabaseError.decoding("alert status \(statusName)") }
        return AlertRecord(
            id: id, userID: UserID(try row.uuid("user_id")), status: status, activatedAt: try row.date("activated_at"),
            resolvedAt: row.optionalDate("resolved_at"), responses: responses)
    }

    /// Everyone who holds the responder role for `user`.
    static func responders(of user: UserID, in connection: any SQLConnection) async throws -> [UserID] {
        try await connection.query("""
            SELECT contact_id FROM contacts WHERE user_id = \(user) AND is_responder = \(true) ORDER BY contact_id
            """).map { UserID(try $0.uuid("contact_id")) }
    }
}
