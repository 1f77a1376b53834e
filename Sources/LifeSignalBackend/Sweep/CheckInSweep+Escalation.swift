import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The sweep's escalation phases: the deadline, the end of a grace period, the next tier, and
/// repeats. Each claims its rows with the marker it sets (`FOR UPDATE SKIP LOCKED` on
/// PostgreSQL) in the transaction that writes the messages, so each happens exactly once
/// however many sweepers run.
extension CheckInSweep {
    /// A person whose responders are told now.
    struct Due {
        var id: UserID
        var name: String
        var deadline: Date
        var tierDelay: TimeInterval
        var repeatInterval: TimeInterval?

        init(row: SQLRow) throws {
            id = UserID(try row.uuid("id"))
            name = PersonName.inMessage(row)
            deadline = try row.date("check_in_deadline")
            tierDelay = TimeInterval(try row.int("escalation_tier_delay_seconds"))
            repeatInterval = row.optionalInt("escalation_repeat_seconds").map { TimeInterval($0) }
        }
    }

    static let dueColumns = """
        id, first_name, last_name, phone, check_in_deadline, escalation_grace_seconds, escalation_tier_delay_seconds,
        escalation_repeat_seconds
        """

    /// Claims people whose deadline passed and was not handled yet (and who are not paused),
    /// marks it handled and its reminder moot. Without a grace period their first tier is told
    /// now; with one they are told when it ends.
    func expire(now: Date, batch: Int, into report: inout SweepReport) async throws -> Int {
        let (claimed, graced, outbox): (Int, Int, Outbox) = try await database.transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE users SET expired_for = check_in_deadline, reminder_sent_for = check_in_deadline,
                    escalated_for = CASE WHEN escalation_grace_seconds = 0 THEN check_in_deadline ELSE escalated_for END
                WHERE id IN (SELECT id FROM users
                             WHERE check_in_deadline <= \(now) AND (expired_for IS NULL OR expired_for <> check_in_deadline)
                               AND (paused_until IS NULL OR paused_until <= \(now))
                             ORDER BY check_in_deadline LIMIT \(batch)\(skipLocked(connection)))
                RETURNING
                """ + SQL.raw(" " + Self.dueColumns))
            guard !rows.isEmpty else { return (0, 0, Outbox()) }
            var escalating: [Due] = []
            var drafts: [NotificationDraft] = []
            for row in rows {
                let due = try Due(row: row)
                let grace = TimeInterval(try row.int("escalation_grace_seconds"))
                if grace == 0 {
                    escalating.append(due)
                    drafts.append(
                        NotificationDraft(
                            recipient: due.id, type: .nonResponsiveSelf, title: "Check-in missed",
                            body: "Your check-in has expired; your responders were told. Check in to let them know you are OK."))
                } else {
                    let at = due.deadline.addingTimeInterval(grace)
                    try await connection.query("UPDATE users SET escalate_at = \(at) WHERE id = \(due.id)")
                    drafts.append(
                        NotificationDraft(
                            recipient: due.id, type: .nonResponsiveSelf, title: "Check-in missed",
                            body: "Your check-in has expired. Your responders will be told at \(Incidents.clockTime(at)) unless you check in before then."))
                }
            }
            var outbox = Outbox()
            drafts += try await Self.escalate(escalating, now: now, outbox: &outbox, in: connection)
            outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
            return (rows.count, rows.count - escalating.count, outbox)
        }
        report.escalations += claimed - graced
        report.graceNotices += graced
        report.notifications += outbox.notifications.count
        await notifier.deliver(outbox)
        return claimed
    }

    /// Claims people whose grace period ended; those still past the same deadline (no check-in,
    /// no new schedule, not paused) have their first tier told.
    func endGrace(now: Date, batch: Int, into report: inout SweepReport) async throws -> Int {
        let (claimed, escalated, outbox): (Int, Int, Outbox) = try await database.transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE users SET escalate_at = NULL,
                    escalated_for = CASE WHEN expired_for = check_in_deadline AND (paused_until IS NULL OR paused_until <= \(now))
                                         THEN check_in_deadline ELSE escalated_for END
                WHERE id IN (SELECT id FROM users WHERE escalate_at <= \(now)
                             ORDER BY escalate_at LIMIT \(batch)\(skipLocked(connection)))
                RETURNING expired_for, escalated_for,
                """ + SQL.raw(" " + Self.dueColumns))
            guard !rows.isEmpty else { return (0, 0, Outbox()) }
            var due: [Due] = []
            for row in rows {
                guard let deadline = row.optionalDate("check_in_deadline"), row.optionalDate("escalated_for") == deadline,
                    row.optionalDate("expired_for") == deadline
                else { continue }
                due.append(try Due(row: row))
            }
            var drafts = due.map {
                NotificationDraft(
                    recipient: $0.id, type: .nonResponsiveSelf, title: "Responders told",
                    body: "Your responders were told you missed your check-in. Check in to let them know you are OK.")
            }
            var outbox = Outbox()
            drafts += try await Self.escalate(due, now: now, outbox: &outbox, in: connection)
            outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
            return (rows.count, due.count, outbox)
        }
        report.escalations += escalated
        report.notifications += outbox.notifications.count
        await notifier.deliver(outbox)
        return claimed
    }

    /// Opens a missed-check-in incident for each of `due` and tells its first tier (the
    /// lowest tier among the responders who want to hear); returns their messages. A person
    /// with an incident already active (an SOS: everyone was told) gets none.
    static func escalate(_ due: [Due], now: Date, outbox: inout Outbox, in connection: any SQLConnection) async throws -> [NotificationDraft] {
        guard !due.isEmpty else { return [] }
        let list = SQL.join(due.map { "\($0.id)" }, separator: ", ")
        let busy = Set(
            try await connection.query("SELECT user_id FROM alerts WHERE status = 'active' AND user_id IN (\(list))")
                .map { UserID(try $0.uuid("user_id")) })
        let responders = Dictionary(grouping: try await Incidents.wantingResponders(of: due.map(\.id), in: connection), by: \.person)
        var inserts: [SQL] = []
        var told: [(UUID, TieredResponder)] = []
        var drafts: [NotificationDraft] = []
        for person in due where !busy.contains(person.id) {
            let id = UUID()
            let theirs = responders[person.id] ?? []
            let first = theirs.map(\.tier).min() ?? 1
            let nextTierAt = Incidents.tier(after: first, among: theirs).map { _ in now.addingTimeInterval(person.tierDelay) }
            // The last tier told and nobody answering: it goes on (``finalRepeat``).
            let repeatAt = Self.finalRepeat(repeat: person.repeatInterval, tierDelay: person.tierDelay, lastTier: nextTierAt == nil)
                .map { now.addingTimeInterval($0) }
            inserts.append(
                """
                (\(id), \(person.id), 'active', \(now), 'missed_check_in', \(person.deadline), \(first), \(nextTierAt), \(repeatAt))
                """)
            outbox.change("alerts", .insert, id, owner: person.id, at: now)
            for responder in theirs where responder.tier == first {
                told.append((id, responder))
                drafts.append(
                    NotificationDraft(
                        recipient: responder.responder, type: .nonResponsiveDependent, title: "Emergency Alert — \(person.name)",
                        body: "\(person.name)'s check-in has expired.", contactID: person.id, incident: id))
            }
        }
        for start in stride(from: 0, to: inserts.count, by: 200) {
            try await connection.query(
                """
                INSERT INTO alerts (id, user_id, status, activated_at, kind, deadline, tier, next_tier_at, next_repeat_at) VALUES
                """ + SQL.join(Array(inserts[start..<min(start + 200, inserts.count)]), separator: ", "))
        }
        try await Incidents.record(told, now: now, in: connection)
        return drafts
    }

    /// Claims incidents whose next tier is due and tells that tier: "X missed a check-in and
    /// nobody has answered", or, once someone acknowledged, "… Y is on it". A resolved
    /// incident has no `next_tier_at`, so it never gets here.
    func advanceTiers(now: Date, batch: Int, into report: inout SweepReport) async throws -> Int {
        let (claimed, advanced, outbox): (Int, Int, Outbox) = try await database.transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE alerts SET next_tier_at = NULL
                WHERE id IN (SELECT id FROM alerts WHERE status = 'active' AND next_tier_at <= \(now)
                             ORDER BY next_tier_at LIMIT \(batch)\(skipLocked(connection)))
                RETURNING id, user_id, tier, acknowledged_by
                """)
            var drafts: [NotificationDraft] = []
            var outbox = Outbox()
            var advanced = 0
            for row in rows {
                let id = try row.uuid("id")
                let owner = UserID(try row.uuid("user_id"))
                guard
                    let person = try await connection.first(
                        """
                        SELECT first_name, last_name, phone, escalation_tier_delay_seconds, escalation_repeat_seconds FROM users WHERE id = \(owner)
                        """)
                else { continue }
                let responders = try await Incidents.wantingResponders(of: [owner], in: connection)
                guard let next = Incidents.tier(after: try row.int("tier"), among: responders) else { continue }
                let following = Incidents.tier(after: next, among: responders)
                let nextTierAt = following.map { _ in now.addingTimeInterval(TimeInterval(person.optionalInt("escalation_tier_delay_seconds") ?? 7200)) }
                try await connection.query("UPDATE alerts SET tier = \(next), next_tier_at = \(nextTierAt) WHERE id = \(id)")
                // A tier just told is repeated to a full interval from now, not at the old tier's time.
                if row.optionalUUID("acknowledged_by") == nil,
                    let interval = Self.finalRepeat(
                        repeat: person.optionalInt("escalation_repeat_seconds").map(TimeInterval.init),
                        tierDelay: TimeInterval(person.optionalInt("escalation_tier_delay_seconds") ?? 7200), lastTier: following == nil)
                {
                    try await connection.query(
                        """
                        UPDATE alerts SET next_repeat_at = \(now.addingTimeInterval(TimeInterval(interval))) WHERE id = \(id)
                        """)
                }
                let already = Set(try await Incidents.recipients(of: id, in: connection).map(\.responder))
                let tier = responders.filter { $0.tier == next && !already.contains($0.responder) }
                try await Incidents.record(tier.map { (id, $0) }, now: now, in: connection)
                let name = PersonName.inMessage(person)
                var acknowledger: String?
                if let by = row.optionalUUID("acknowledged_by"),
                    let who = try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(by)")
                {
                    acknowledger = PersonName.inMessage(who)
                }
                drafts += tier.map {
                    if let acknowledger {
                        NotificationDraft(
                            recipient: $0.responder, type: .alertAcknowledged, title: "\(name) missed a check-in",
                            body: "\(name)'s check-in has expired. \(acknowledger) is on it.", contactID: owner, incident: id,
                            startsRound: true)
                    } else {
                        NotificationDraft(
                            recipient: $0.responder, type: .nonResponsiveDependent, title: "Emergency Alert — \(name)",
                            body: "\(name)'s check-in has expired and nobody has answered yet.", contactID: owner, incident: id)
                    }
                }
                outbox.change("alerts", .update, id, owner: owner, at: now)
                advanced += 1
            }
            outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
            return (rows.count, advanced, outbox)
        }
        report.tiersAdvanced += advanced
        report.notifications += outbox.notifications.count
        await notifier.deliver(outbox)
        return claimed
    }

    /// Claims unacknowledged incidents whose repeat is due: the person (a missed check-in) and
    /// the responders of the current tier (an SOS: everyone told) hear it again, and the next
    /// repeat is set from the person's interval.
    func repeatUnanswered(now: Date, batch: Int, into report: inout SweepReport) async throws -> Int {
        let (claimed, repeated, outbox): (Int, Int, Outbox) = try await database.transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE alerts SET next_repeat_at = NULL
                WHERE id IN (SELECT id FROM alerts WHERE status = 'active' AND next_repeat_at <= \(now)
                             ORDER BY next_repeat_at LIMIT \(batch)\(skipLocked(connection)))
                RETURNING id, user_id, kind, tier, acknowledged_at
                """)
            var drafts: [NotificationDraft] = []
            var repeated = 0
            for row in rows where row.optionalDate("acknowledged_at") == nil {
                let id = try row.uuid("id")
                let owner = UserID(try row.uuid("user_id"))
                let kind = AlertKind(rawValue: try row.string("kind")) ?? .sos
                guard
                    let person = try await connection.first(
                        """
                        SELECT first_name, last_name, phone, escalation_repeat_seconds, escalation_tier_delay_seconds FROM users WHERE id = \(owner)
                        """)
                else { continue }
                let tier = try row.int("tier")
                // Every tier tried and nobody answering: everyone told hears it at once, again
                // and again, until someone does or the person checks in.
                let wanting = try await Incidents.wantingResponders(of: [owner], in: connection)
                let lastTier = kind == .sos || Incidents.tier(after: tier, among: wanting) == nil
                if let interval = Self.finalRepeat(
                    repeat: person.optionalInt("escalation_repeat_seconds").map(TimeInterval.init),
                    tierDelay: TimeInterval(person.optionalInt("escalation_tier_delay_seconds") ?? 7200), lastTier: lastTier)
                {
                    try await connection.query(
                        """
                        UPDATE alerts SET next_repeat_at = \(now.addingTimeInterval(TimeInterval(interval))) WHERE id = \(id)
                        """)
                }
                let name = PersonName.inMessage(person)
                let told = try await Incidents.recipients(of: id, in: connection).filter { lastTier || $0.tier == tier }
                switch kind {
                case .missedCheckIn:
                    drafts.append(
                        NotificationDraft(
                            recipient: owner, type: .nonResponsiveSelf, title: "Check in now",
                            body: "You missed your check-in and your responders were told. Check in to let them know you are OK.",
                            incident: id))
                    drafts += told.map {
                        NotificationDraft(
                            recipient: $0.responder, type: .nonResponsiveDependent, title: "Reminder: \(name) missed a check-in",
                            body: "\(name)'s check-in is still overdue and nobody has answered yet.", contactID: owner, incident: id)
                    }
                case .sos:
                    drafts += told.map {
                        NotificationDraft(
                            recipient: $0.responder, type: .alertActivatedReceived, title: "ALERT: \(name) still needs help",
                            body: "\(name)'s emergency alert is still active and nobody has answered yet.", contactID: owner, incident: id)
                    }
                }
                repeated += 1
            }
            return (rows.count, repeated, try await NotificationStore.outbox(drafts, now: now, in: connection))
        }
        report.repeats += repeated
        report.notifications += outbox.notifications.count
        await notifier.deliver(outbox)
        return claimed
    }

    /// How long until an unanswered incident is told again: the person's repeat interval; once
    /// the last tier has been told, the tier delay when they set no repeats, so an incident
    /// nobody answers is never left silent.
    static func finalRepeat(repeat interval: TimeInterval?, tierDelay: TimeInterval, lastTier: Bool) -> TimeInterval? {
        interval ?? (lastTier ? tierDelay : nil)
    }
}
