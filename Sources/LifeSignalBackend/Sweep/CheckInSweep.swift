import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The missed-check-in sweep behind `process-check-ins`: reminders at deadline − lead, the
/// person told at the deadline, responders told when the person's grace period ends (at the
/// deadline by default) tier by tier, repeats while nobody acknowledged, the end of incidents
/// whose deadline moved, and retention.
///
/// **Exactly once per deadline and per tier.** Each person carries markers (`reminder_sent_for`,
/// `expired_for`, `escalated_for`) naming the deadline already handled, and `escalate_at`
/// while a grace period runs; each incident carries `next_tier_at` and `next_repeat_at`,
/// which a claim clears or moves. A batch claims due rows and sets their
/// marker in the same transaction that writes the notifications, so the work commits with its
/// marker or not at all: a sweeper that dies mid-batch leaves the batch for the next sweep,
/// and a committed batch is never redone. On PostgreSQL the claim is
/// `FOR UPDATE SKIP LOCKED`: two sweepers running at once take disjoint rows, and a row another
/// sweeper committed meanwhile is re-checked against the marker and dropped. SQLite's
/// transactions are serialised, which gives the same guarantee.
///
/// **Only due rows are read**: each phase's `WHERE` matches a partial index on
/// `check_in_deadline` that holds only people with work left (see the `check_in_sweep`
/// migration), in batches ordered by deadline.
public struct CheckInSweep: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier
    /// Whose expired sign-in rows the retention step deletes.
    let auth: AuthService

    public static let defaultBatchSize = 1000
    /// A batch is one transaction holding its rows (and SQLite's writer) until it commits; a
    /// write waiting for the writer gets it between two batches (``AsyncLock`` is first come,
    /// first served), so the sweep holds it in slices of at most one batch.
    public static let maximumBatchSize = 10_000

    /// Runs every phase until nothing is due. Only the service role may sweep; `batchSize`
    /// is 1…``maximumBatchSize``.
    public func run(caller: Caller, batchSize: Int = defaultBatchSize) async throws -> SweepReport {
        switch caller {
        case .anonymous: throw DomainError.unauthenticated
        case .user: throw DomainError.forbidden("Only the service role may process check-ins")
        case .service: break
        }
        guard (1...Self.maximumBatchSize).contains(batchSize) else {
            throw DomainError.invalidArgument("batchSize must be between 1 and \(Self.maximumBatchSize), not \(batchSize)")
        }
        let batch = batchSize
        let now = clock.now()
        var report = SweepReport()
        // Incidents whose deadline moved end first, so a new deadline already past starts its own.
        while try await resume(now: now, batch: batch, into: &report) == batch {}
        while try await expire(now: now, batch: batch, into: &report) == batch {}
        while try await endGrace(now: now, batch: batch, into: &report) == batch {}
        while try await advanceTiers(now: now, batch: batch, into: &report) == batch {}
        while try await repeatUnanswered(now: now, batch: batch, into: &report) == batch {}
        while try await remind(now: now, batch: batch, into: &report) == batch {}
        try await cleanUp(now: now, batch: batch, into: &report)
        return report
    }

    func skipLocked(_ connection: any SQLConnection) -> SQL {
        connection.dialect.forUpdateSkipLocked
    }

    /// Clears the escalation marker of people whose deadline moved since it was escalated, and
    /// ends their missed-check-in incident: `checked_in` when they checked in after it (a
    /// check-in ends it at once; this catches one committed without that step), else
    /// `cancelled` (they changed their schedule). Everyone told hears the all-clear.
    private func resume(now: Date, batch: Int, into report: inout SweepReport) async throws -> Int {
        let (claimed, resumed, outbox): (Int, Int, Outbox) = try await database.transaction { connection in
            let rows = try await connection.query(
                """
                SELECT id, first_name, last_name, phone, last_check_in_at, escalated_for FROM users
                WHERE escalated_for IS NOT NULL AND escalated_for <> check_in_deadline
                ORDER BY id LIMIT \(batch)
                """ + skipLocked(connection))
            guard !rows.isEmpty else { return (0, 0, Outbox()) }
            let ids = try rows.map { UserID(try $0.uuid("id")) }
            try await connection.query(
                "UPDATE users SET escalated_for = NULL WHERE id IN (" + SQL.join(ids.map { "\($0)" }, separator: ", ") + ")")
            var drafts: [NotificationDraft] = []
            var outbox = Outbox()
            var resumed = 0
            for row in rows {
                let id = UserID(try row.uuid("id"))
                guard let active = try await Incidents.active(of: id, in: connection), active.kind == .missedCheckIn else { continue }
                var checkedIn = false
                if let last = row.optionalDate("last_check_in_at"), let escalated = row.optionalDate("escalated_for") {
                    checkedIn = last > escalated
                }
                drafts += try await Incidents.resolve(
                    active.id, as: checkedIn ? .checkedIn : .cancelled, by: nil,
                    ownerName: PersonName.inMessage(row), now: now, in: connection)
                outbox.change("alerts", .update, active.id, owner: id, at: now)
                if checkedIn { resumed += 1 }
            }
            outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
            return (rows.count, resumed, outbox)
        }
        report.resumed += resumed
        report.notifications += outbox.notifications.count
        await notifier.deliver(outbox)
        return claimed
    }

    /// Claims people whose reminder time (deadline − lead) has come and whose deadline has not
    /// passed, marks the reminder sent and reminds them.
    private func remind(now: Date, batch: Int, into report: inout SweepReport) async throws -> Int {
        let leads = ReminderLead.allCases.compactMap(\.seconds)
        guard let longest = leads.max() else { return 0 }
        let windows = SQL.join(
            leads.map { lead in
                "(reminder_lead_seconds = \(Int(lead)) AND check_in_deadline <= \(now.addingTimeInterval(lead)))"
            }, separator: " OR ")
        let (claimed, outbox): (Int, Outbox) = try await database.transaction { connection in
            let rows = try await connection.query(
                """
                UPDATE users SET reminder_sent_for = check_in_deadline
                WHERE id IN (SELECT id FROM users
                             WHERE reminder_lead_seconds IS NOT NULL AND (reminder_sent_for IS NULL OR reminder_sent_for <> check_in_deadline)
                               AND check_in_deadline > \(now) AND check_in_deadline <= \(now.addingTimeInterval(longest))
                               AND (paused_until IS NULL OR paused_until <= \(now))
                               AND (\(windows))
                             ORDER BY check_in_deadline LIMIT \(batch)\(skipLocked(connection)))
                RETURNING id, reminder_lead_seconds
                """)
            let drafts = try rows.map { row in
                let lead = try ReminderLead(seconds: row.optionalInt("reminder_lead_seconds").map { TimeInterval($0) })
                let when = lead == .twoHours ? "2 hours" : "30 minutes"
                return NotificationDraft(
                    recipient: UserID(try row.uuid("id")), type: .checkInReminder, title: "Time to check in",
                    body: "Your check-in is due in \(when).")
            }
            return (rows.count, try await NotificationStore.outbox(drafts, now: now, in: connection))
        }
        report.reminders += claimed
        report.notifications += outbox.notifications.count
        await notifier.deliver(outbox)
        return claimed
    }

    /// Retention: answered or cleared pings after 24 h, notifications after 7 days, deleted
    /// `batch` rows a transaction like every other phase: a month of notifications gone stale
    /// at once would otherwise hold SQLite's writer (and every sign-in behind it) for seconds.
    private func cleanUp(now: Date, batch: Int, into report: inout SweepReport) async throws {
        let pings: SQL = """
            DELETE FROM pings WHERE id IN (SELECT id FROM pings
                WHERE status <> 'pending' AND resolved_at < \(now.addingTimeInterval(-Retention.pings)) LIMIT \(batch))
            """
        let notifications: SQL = """
            DELETE FROM notifications WHERE id IN (SELECT id FROM notifications
                WHERE created_at < \(now.addingTimeInterval(-Retention.notifications)) LIMIT \(batch))
            """
        var deleted = batch
        while deleted == batch {
            deleted = try await database.transaction { try await $0.query(pings + " RETURNING id").count }
            report.deletedPings += deleted
        }
        deleted = batch
        while deleted == batch {
            deleted = try await database.transaction { try await $0.query(notifications + " RETURNING id").count }
            report.deletedNotifications += deleted
        }
        let pruned = try await auth.pruneExpired(now: now, batch: batch)
        report.deletedSignInRows = pruned.throttleCounts + pruned.oneTimeCodes + pruned.sessions + pruned.refreshTokens
    }
}
