import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Escalation settings and the pause: the rules behind `get-escalation-settings`,
/// `update-escalation-settings`, `update-contact-tier`, `pause-check-ins` and
/// `resume-check-ins`. Only the person who checks in changes their own.
extension CheckInService {
    public func escalation(caller: Caller) async throws -> CheckInEscalation {
        let me = try caller.requireUser()
        let now = clock.now()
        return try await database.transaction { try await Self.overview(of: me, now: now, in: $0) }
    }

    /// Changes the given settings (each may be left as is); every one is checked first.
    /// `repeatSeconds` 0 turns repeats off.
    public func updateEscalation(caller: Caller, graceSeconds: Int?, tierDelaySeconds: Int?, repeatSeconds: Int?) async throws -> CheckInEscalation {
        let me = try caller.requireUser()
        let now = clock.now()
        let (overview, outbox): (CheckInEscalation, Outbox) = try await database.transaction { connection in
            var settings = try await Self.overview(of: me, now: now, in: connection).settings
            if let graceSeconds { settings.graceSeconds = graceSeconds }
            if let tierDelaySeconds { settings.tierDelaySeconds = tierDelaySeconds }
            if let repeatSeconds { settings.repeatSeconds = repeatSeconds == 0 ? nil : repeatSeconds }
            try settings.validate()
            try await connection.query(
                """
                UPDATE users SET escalation_grace_seconds = \(settings.graceSeconds),
                    escalation_tier_delay_seconds = \(settings.tierDelaySeconds),
                    escalation_repeat_seconds = \(settings.repeatSeconds), updated_at = \(now)
                WHERE id = \(me)
                """)
            var outbox = Outbox()
            outbox.change("users", .update, me.rawValue, owner: me, at: now)
            return (try await Self.overview(of: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return overview
    }

    /// Puts `responder`, one of the caller's responders, in `tier` (1…9): tier 1 is told at
    /// escalation, each next tier a tier delay later while nobody has acknowledged.
    public func updateTier(caller: Caller, responder: UserID, tier: Int) async throws -> CheckInEscalation {
        let me = try caller.requireUser()
        try EscalationSettings.validate(tier: tier)
        let now = clock.now()
        let (overview, outbox): (CheckInEscalation, Outbox) = try await database.transaction { connection in
            guard
                let row = try await connection.first(
                    """
                    UPDATE contacts SET tier = \(tier), updated_at = \(now)
                    WHERE user_id = \(me) AND contact_id = \(responder) AND is_responder = \(true) RETURNING id
                    """)
            else { throw DomainError.notFound("Responder \(responder)") }
            var outbox = Outbox()
            outbox.change("contacts", .update, try row.uuid("id"), owner: me, at: now)
            return (try await Self.overview(of: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return overview
    }

    /// Pauses the caller's check-ins until `until` (after now, at most 30 days ahead): no
    /// reminder and no escalation until then, when a fresh interval starts (the deadline
    /// becomes `until` + interval). Every responder is told until when; a missed check-in
    /// being escalated ends (`cancelled`) with the all-clear to everyone told.
    public func pause(caller: Caller, until: Date) async throws -> CheckInEscalation {
        let me = try caller.requireUser()
        let now = clock.now()
        guard until > now, until <= now.addingTimeInterval(EscalationSettings.longestPause) else {
            throw DomainError.invalidArgument("until must be after now and at most 30 days ahead")
        }
        return try await setPause(me, until: until, now: now)
    }

    /// Ends the caller's pause now: a fresh interval starts and their responders are told.
    /// Not paused is ``DomainError/failedPrecondition(_:)``.
    public func resume(caller: Caller) async throws -> CheckInEscalation {
        let me = try caller.requireUser()
        return try await setPause(me, until: nil, now: clock.now())
    }

    private func setPause(_ me: UserID, until: Date?, now: Date) async throws -> CheckInEscalation {
        let (overview, outbox): (CheckInEscalation, Outbox) = try await database.transaction { connection in
            guard
                let person = try await connection.first(
                    """
                    SELECT first_name, last_name, phone, check_in_interval_seconds, paused_until FROM users WHERE id = \(me)
                    """ + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            let paused = person.optionalDate("paused_until").map { $0 > now } ?? false
            if until == nil, !paused { throw DomainError.failedPrecondition("Check-ins are not paused") }
            let deadline = (until ?? now).addingTimeInterval(TimeInterval(try person.int("check_in_interval_seconds")))
            try await connection.query(
                """
                UPDATE users SET paused_until = \(until), check_in_deadline = \(deadline), escalated_for = NULL, escalate_at = NULL,
                    updated_at = \(now)
                WHERE id = \(me)
                """)
            let name = PersonName.inMessage(person)
            var drafts: [NotificationDraft] = []
            var outbox = Outbox()
            if let active = try await Incidents.active(of: me, in: connection), active.kind == .missedCheckIn {
                drafts += try await Incidents.resolve(active.id, as: .cancelled, by: me, ownerName: name, now: now, in: connection)
                outbox.change("alerts", .update, active.id, owner: me, at: now)
            }
            let message: (type: NotificationType, title: String, body: String) =
                if let until {
                    (
                        .checkInsPaused, "\(name) paused check-ins",
                        "\(name) paused check-ins until \(Incidents.dayAndTime(until)); you will not be alerted about missed check-ins until then."
                    )
                } else {
                    (.checkInsUnpaused, "\(name) resumed check-ins", "\(name) resumed check-ins; the next one is due by \(Incidents.dayAndTime(deadline)).")
                }
            drafts += try await AlertService.responders(of: me, in: connection).map {
                NotificationDraft(recipient: $0, type: message.type, title: message.title, body: message.body, contactID: me)
            }
            outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
            outbox.change("users", .update, me.rawValue, owner: me, at: now)
            return (try await Self.overview(of: me, now: now, in: connection), outbox)
        }
        await notifier.deliver(outbox)
        return overview
    }

    static func overview(of me: UserID, now: Date, in connection: any SQLConnection) async throws -> CheckInEscalation {
        guard
            let row = try await connection.first(
                """
                SELECT escalation_grace_seconds, escalation_tier_delay_seconds, escalation_repeat_seconds, paused_until, check_in_deadline
                FROM users WHERE id = \(me)
                """)
        else { throw DomainError.notFound("User \(me)") }
        let responders = try await connection.query(
            """
            SELECT c.contact_id, c.tier, u.first_name, u.last_name, u.phone FROM contacts c JOIN users u ON u.id = c.contact_id
            WHERE c.user_id = \(me) AND c.is_responder = \(true) ORDER BY c.tier, c.contact_id
            """
        ).map { row in
            CheckInEscalation.Responder(id: UserID(try row.uuid("contact_id")), name: PersonName.display(row), tier: try row.int("tier"))
        }
        return CheckInEscalation(
            settings: EscalationSettings(
                graceSeconds: try row.int("escalation_grace_seconds"), tierDelaySeconds: try row.int("escalation_tier_delay_seconds"),
                repeatSeconds: row.optionalInt("escalation_repeat_seconds")),
            pausedUntil: row.optionalDate("paused_until").flatMap { $0 > now ? $0 : nil }, deadline: row.optionalDate("check_in_deadline"),
            responders: responders)
    }
}
