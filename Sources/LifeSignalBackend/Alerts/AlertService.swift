import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Incidents seen from the app and the responder link: the rules behind `trigger-alert`,
/// `cancel-alert`, `get-active-alert`, `respond-to-alert` and `mark-safe`.
///
/// An incident is an SOS (raised here) or a missed check-in (raised by ``CheckInSweep``); a
/// person has at most one active. An SOS tells every responder at once, whatever their tier:
/// the person asked for help now. An SOS raised while a missed check-in is active *becomes*
/// that incident (same id, kind `sos`, every responder told), so links and acknowledgements
/// already given stay valid. Whoever was told hears the all-clear when it ends.
///
/// Rows are locked person first, then incident (as the check-in and the sweep do), so two
/// writers on one person never deadlock on PostgreSQL.
public struct AlertService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    /// Raises an SOS for the caller, with where they are if they share it. An SOS already
    /// active is ``DomainError/failedPrecondition(_:)`` (the seeds' `alreadyActive`); a missed
    /// check-in active becomes the SOS.
    public func trigger(caller: Caller, location: AlertLocation? = nil) async throws -> AlertRecord {
        let me = try caller.requireUser()
        try location?.validate()
        let now = clock.now()
        let (alert, outbox): (AlertRecord, Outbox) = try await database.transaction { connection in
            guard
                let person = try await connection.first(
                    "SELECT id, first_name, last_name, phone, escalation_repeat_seconds, escalation_tier_delay_seconds FROM users WHERE id = \(me)"
                        + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            let responders = try await Incidents.allResponders(of: me, in: connection)
            let tier = responders.map(\.tier).max() ?? 1
            // Everyone is told at once: it is repeated until someone answers (``CheckInSweep/finalRepeat``).
            let repeatAt = CheckInSweep.finalRepeat(
                repeat: person.optionalInt("escalation_repeat_seconds").map(TimeInterval.init),
                tierDelay: TimeInterval(person.optionalInt("escalation_tier_delay_seconds") ?? 7200), lastTier: true
            ).map { now.addingTimeInterval($0) }
            let place: SQL = """
                latitude = \(location.map { SQLValue.double($0.latitude) } ?? .null),
                longitude = \(location.map { SQLValue.double($0.longitude) } ?? .null),
                accuracy_meters = \(location?.accuracyMeters.map(SQLValue.double) ?? .null), located_at = \(location?.time)
                """
            let id: UUID
            var outbox = Outbox()
            switch try await Incidents.active(of: me, in: connection) {
            case (_, .sos)?:
                throw DomainError.failedPrecondition("An alert is already active")
            case (let active, .missedCheckIn)?:
                id = active
                try await connection.query(
                    """
                    UPDATE alerts SET kind = 'sos', activated_at = \(now), tier = \(tier), next_tier_at = NULL,
                        next_repeat_at = \(repeatAt), \(place)
                    WHERE id = \(id)
                    """)
                outbox.change("alerts", .update, id, owner: me, at: now)
            case nil:
                id = UUID()
                do {
                    try await connection.query(
                        """
                        INSERT INTO alerts (id, user_id, status, activated_at, kind, tier, next_repeat_at)
                        VALUES (\(id), \(me), 'active', \(now), 'sos', \(tier), \(repeatAt))
                        """)
                    try await connection.query("UPDATE alerts SET \(place) WHERE id = \(id)")
                } catch let error as DatabaseError where error.isUniqueViolation {
                    throw DomainError.failedPrecondition("An alert is already active")
                }
                outbox.change("alerts", .insert, id, owner: me, at: now)
            }
            try await Incidents.record(responders, alert: id, now: now, in: connection)
            let name = PersonName.inMessage(person)
            var drafts = responders.map {
                NotificationDraft(
                    recipient: $0.responder, type: .alertActivatedReceived, title: "ALERT: \(name) needs help!",
                    body: "\(name) raised an emergency alert." + Incidents.sharedPlace(location), contactID: me, incident: id)
            }
            drafts.append(
                NotificationDraft(
                    recipient: me, type: .alertActivatedSent, title: "Alert sent",
                    body: "Your responders were alerted (\(drafts.count)).", incident: id))
            outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
            guard let alert = try await Self.alert(id, in: connection) else { throw DomainError.notFound("Alert \(id)") }
            return (alert, outbox)
        }
        await notifier.deliver(outbox)
        return alert
    }

    /// Ends the caller's active incident (the one with `alertID`, when given) as cancelled, and
    /// tells everyone who was told. None active — or not that one — is
    /// ``DomainError/notFound(_:)`` (the seeds' `notActive`).
    public func cancel(caller: Caller, alertID: UUID? = nil) async throws -> AlertRecord {
        let me = try caller.requireUser()
        let now = clock.now()
        let (alert, outbox): (AlertRecord, Outbox) = try await database.transaction { connection in
            guard
                let person = try await connection.first(
                    "SELECT id, first_name, last_name, phone FROM users WHERE id = \(me)" + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            guard let active = try await Incidents.active(of: me, in: connection), alertID == nil || alertID == active.id else {
                throw DomainError.notFound("Active alert")
            }
            var drafts = try await Incidents.resolve(
                active.id, as: .cancelled, by: me, ownerName: PersonName.inMessage(person),
                now: now, in: connection)
            drafts.append(
                NotificationDraft(
                    recipient: me, type: .alertCancelledSent, title: "Alert cancelled",
                    body: "Your responders were told the alert is over.", incident: active.id))
            var outbox = try await NotificationStore.outbox(drafts, now: now, in: connection)
            outbox.change("alerts", .update, active.id, owner: me, at: now)
            guard let alert = try await Self.alert(active.id, in: connection) else { throw DomainError.notFound("Alert \(active.id)") }
            return (alert, outbox)
        }
        await notifier.deliver(outbox)
        return alert
    }

    /// The active incident of `user` (the caller by default), SOS or missed check-in, or `nil`.
    /// Another person's is visible only to their responders.
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

    /// Records that the caller, a responder of the incident's owner, is on it ("I'm on it").
    /// The owner is told each time; the first acknowledgement also tells every responder
    /// already told, stops the repeats, and makes later tiers hear "X is on it".
    public func respond(caller: Caller, alertID: UUID) async throws -> AlertResponse {
        let me = try caller.requireUser()
        let now = clock.now()
        let (response, outbox): (AlertResponse, Outbox) = try await database.transaction { connection in
            let (alert, owner) = try await Self.lockActive(
                alertID, responder: me, refusal: "Only a responder of this person may respond to their alert", in: connection)
            if try await connection.first(
                """
                SELECT 1 AS done FROM alert_responses WHERE alert_id = \(alertID) AND responder_id = \(me)
                """) != nil
            {
                throw DomainError.alreadyExists("Your response to this alert")
            }
            try await connection.query(
                """
                INSERT INTO alert_responses (alert_id, responder_id, responded_at) VALUES (\(alertID), \(me), \(now))
                """)
            guard let responder = try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(me)"),
                let person = try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(owner)")
            else { throw DomainError.notFound("User \(me)") }
            let name = PersonName.inMessage(responder)
            let ownerName = PersonName.inMessage(person)
            var drafts = [
                NotificationDraft(
                    recipient: owner, type: .alertAcknowledged, title: "Help is coming",
                    body: "\(name) is on it.", contactID: me, incident: alertID)
            ]
            if alert.optionalDate("acknowledged_at") == nil {
                try await connection.query(
                    """
                    UPDATE alerts SET acknowledged_at = \(now), acknowledged_by = \(me), next_repeat_at = NULL WHERE id = \(alertID)
                    """)
                // Someone is on it: the rest of every responder's fallback order is not needed.
                try await DeliveryFallback.cancel(alert: alertID, now: now, in: connection)
                drafts += try await Incidents.recipients(of: alertID, in: connection).filter { $0.responder != me }.map {
                    NotificationDraft(
                        recipient: $0.responder, type: .alertAcknowledged, title: "\(name) is on it",
                        body: "\(name) is on it: they answered \(ownerName)'s alert.", contactID: owner, incident: alertID)
                }
            }
            // Whoever answers hears how it ends, told before or not.
            try await Incidents.record(
                [TieredResponder(person: owner, responder: me, tier: try await Self.tier(of: me, for: owner, in: connection))],
                alert: alertID, now: now, in: connection)
            var outbox = try await NotificationStore.outbox(drafts, now: now, in: connection)
            outbox.change("alert_responses", .insert, alertID, owner: owner, at: now)
            outbox.change("alerts", .update, alertID, owner: owner, at: now)
            return (AlertResponse(responderID: me, responderName: name, respondedAt: now), outbox)
        }
        await notifier.deliver(outbox)
        return response
    }

    /// A responder of the incident's owner confirms they are safe ("They're safe"): the
    /// incident ends as `marked_safe` and everyone told hears the all-clear, the person too.
    /// For a missed check-in the confirmation counts as a check-in on the person's behalf
    /// (source `responder_initiated`), so a fresh interval starts.
    public func markSafe(caller: Caller, alertID: UUID) async throws -> AlertRecord {
        let me = try caller.requireUser()
        let now = clock.now()
        let (alert, outbox): (AlertRecord, Outbox) = try await database.transaction { connection in
            guard let owned = try await connection.first("SELECT user_id FROM alerts WHERE id = \(alertID)") else {
                throw DomainError.notFound("Alert \(alertID)")
            }
            let owner = UserID(try owned.uuid("user_id"))
            guard
                let person = try await connection.first(
                    """
                    SELECT first_name, last_name, phone, check_in_interval_seconds, paused_until FROM users WHERE id = \(owner)
                    """ + connection.forUpdate)
            else { throw DomainError.notFound("Alert \(alertID)") }
            let (alert, _) = try await Self.lockActive(
                alertID, responder: me, refusal: "Only a responder of this person may mark them safe", in: connection)
            try await Incidents.record(
                [TieredResponder(person: owner, responder: me, tier: try await Self.tier(of: me, for: owner, in: connection))],
                alert: alertID, now: now, in: connection)
            let ownerName = PersonName.inMessage(person)
            var drafts = try await Incidents.resolve(alertID, as: .markedSafe, by: me, ownerName: ownerName, now: now, in: connection)
            guard let responder = try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(me)") else {
                throw DomainError.notFound("User \(me)")
            }
            var outbox = Outbox()
            if try alert.string("kind") == AlertKind.missedCheckIn.rawValue {
                let pausedUntil = person.optionalDate("paused_until").flatMap { $0 > now ? $0 : nil }
                let deadline = (pausedUntil ?? now).addingTimeInterval(TimeInterval(try person.int("check_in_interval_seconds")))
                try await connection.query(
                    """
                    INSERT INTO check_ins (id, user_id, checked_in_at, source)
                    VALUES (\(UUID()), \(owner), \(now), \(CheckInSource.responderInitiated.rawValue))
                    """)
                try await connection.query(
                    """
                    UPDATE users SET last_check_in_at = \(now), check_in_deadline = \(deadline), escalated_for = NULL,
                        escalate_at = NULL, updated_at = \(now)
                    WHERE id = \(owner)
                    """)
                outbox.change("users", .update, owner.rawValue, owner: owner, at: now)
            }
            drafts.append(
                NotificationDraft(
                    recipient: owner, type: .markedSafe, title: "Marked safe",
                    body: "\(PersonName.inMessage(responder)) confirmed you are safe; everyone told heard so.",
                    contactID: me, incident: alertID))
            outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
            outbox.change("alerts", .update, alertID, owner: owner, at: now)
            guard let record = try await Self.alert(alertID, in: connection) else { throw DomainError.notFound("Alert \(alertID)") }
            return (record, outbox)
        }
        await notifier.deliver(outbox)
        return alert
    }

    /// The alert history of the caller, newest first, with responses.
    public func history(caller: Caller, limit: Int = 50) async throws -> [AlertRecord] {
        let me = try caller.requireUser()
        return try await database.transaction { connection in
            var alerts: [AlertRecord] = []
            for row in try await connection.query(
                """
                SELECT id FROM alerts WHERE user_id = \(me) ORDER BY activated_at DESC LIMIT \(max(1, min(limit, 500)))
                """)
            {
                if let alert = try await Self.alert(try row.uuid("id"), in: connection) { alerts.append(alert) }
            }
            return alerts
        }
    }

    /// Locks incident `id` and checks that `responder` is a responder of its owner and that it
    /// is still active; returns the row (`kind`, `acknowledged_at`) and the owner.
    private static func lockActive(_ id: UUID, responder: UserID, refusal: String, in connection: any SQLConnection) async throws -> (SQLRow, UserID) {
        guard
            let alert = try await connection.first(
                "SELECT id, user_id, status, kind, acknowledged_at FROM alerts WHERE id = \(id)" + connection.forUpdate)
        else { throw DomainError.notFound("Alert \(id)") }
        let owner = UserID(try alert.uuid("user_id"))
        guard try await ContactPairs.roles(of: owner, for: responder, in: connection)?.isDependent == true else {
            throw DomainError.forbidden(refusal)
        }
        guard try alert.string("status") == AlertStatus.active.rawValue else {
            throw DomainError.failedPrecondition("The alert is no longer active")
        }
        return (alert, owner)
    }

    /// The tier `owner` gave `responder` (1 when they are no longer related).
    private static func tier(of responder: UserID, for owner: UserID, in connection: any SQLConnection) async throws -> Int {
        try await connection.first("SELECT tier FROM contacts WHERE user_id = \(owner) AND contact_id = \(responder)")?.int("tier") ?? 1
    }

    static func activeAlert(of user: UserID, in connection: any SQLConnection) async throws -> AlertRecord? {
        guard let row = try await connection.first("SELECT id FROM alerts WHERE user_id = \(user) AND status = 'active'") else {
            return nil
        }
        return try await alert(try row.uuid("id"), in: connection)
    }

    static func alert(_ id: UUID, in connection: any SQLConnection) async throws -> AlertRecord? {
        guard
            let row = try await connection.first(
                """
                SELECT id, user_id, status, activated_at, resolved_at, resolved_by, kind, deadline, tier, acknowledged_at,
                    acknowledged_by, resolution, latitude, longitude, accuracy_meters, located_at
                FROM alerts WHERE id = \(id)
                """)
        else { return nil }
        let responses = try await connection.query(
            """
            SELECT r.responder_id, r.responded_at, u.first_name, u.last_name, u.phone
            FROM alert_responses r JOIN users u ON u.id = r.responder_id
            WHERE r.alert_id = \(id) ORDER BY r.responded_at, r.responder_id
            """
        ).map { row in
            AlertResponse(
                responderID: UserID(try row.uuid("responder_id")), responderName: PersonName.display(row),
                respondedAt: try row.date("responded_at"))
        }
        let statusName = try row.string("status")
        let kindName = try row.string("kind")
        guard let status = AlertStatus(rawValue: statusName) else { throw DatabaseError.decoding("alert status \(statusName)") }
        guard let kind = AlertKind(rawValue: kindName) else { throw DatabaseError.decoding("alert kind \(kindName)") }
        let activatedAt = try row.date("activated_at")
        var location: AlertLocation?
        if let latitude = try? row.double("latitude"), let longitude = try? row.double("longitude") {
            location = AlertLocation(
                latitude: latitude, longitude: longitude, accuracyMeters: try? row.double("accuracy_meters"),
                time: row.optionalDate("located_at") ?? activatedAt)
        }
        return AlertRecord(
            id: id, userID: UserID(try row.uuid("user_id")), status: status, activatedAt: activatedAt,
            resolvedAt: row.optionalDate("resolved_at"), responses: responses, kind: kind, deadline: row.optionalDate("deadline"),
            tier: try row.int("tier"), acknowledgedAt: row.optionalDate("acknowledged_at"),
            acknowledgedBy: row.optionalUUID("acknowledged_by").map { UserID($0) },
            resolution: row.optionalString("resolution").flatMap(AlertResolution.init(rawValue:)),
            resolvedBy: row.optionalUUID("resolved_by").map { UserID($0) }, location: location)
    }

    /// Everyone who holds the responder role for `user`.
    static func responders(of user: UserID, in connection: any SQLConnection) async throws -> [UserID] {
        try await connection.query(
            """
            SELECT contact_id FROM contacts WHERE user_id = \(user) AND is_responder = \(true) ORDER BY contact_id
            """
        ).map { UserID(try $0.uuid("contact_id")) }
    }
}
