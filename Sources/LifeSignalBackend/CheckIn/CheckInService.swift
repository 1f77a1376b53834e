import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Check-ins and the status they produce: the rules behind `check-in`.
public struct CheckInService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier
    /// The person's check-in PIN and duress PIN, checked before any check-in is recorded.
    let pins: CheckInPINs

    public typealias Source = CheckInSource

    /// Records a check-in for `caller` now and moves their deadline to now + interval (to the
    /// end of a pause + interval while check-ins are paused).
    ///
    /// The person's row is locked while the cooldown is checked, so two taps racing each other
    /// record one check-in and refuse the other as too soon. A check-in during an escalated
    /// missed check-in ends that incident (`checked_in`) and everyone told hears the all-clear
    /// at once; during the grace period nobody was told, so nobody hears anything.
    ///
    /// Once the person has set a check-in PIN, `pin` must be it or their duress PIN
    /// (``CheckInPINs``); a duress PIN gives exactly this answer too.
    public func checkIn(caller: Caller, source: Source = .manual, pin: String? = nil) async throws -> CheckInResult {
        let userID = try caller.requireUser()
        let duress = try await pins.verify(userID, pin: pin) == .duress
        let now = clock.now()
        let (result, outbox) = try await database.transaction {
            try await Self.record(userID, source: source, now: now, duress: duress, in: $0)
        }
        await notifier.deliver(outbox)
        return result
    }

    /// The check-in itself, in the caller's transaction: the person's row locked, the cooldown
    /// checked, the check-in and the new deadline written, a missed check-in's incident ended.
    /// Under `duress` everything the person can see is the same; only their responders hear,
    /// and what they hear is the duress warning (``duressWarnings(for:name:now:in:)``).
    static func record(
        _ userID: UserID, source: Source, now: Date, duress: Bool = false, in connection: any SQLConnection
    ) async throws -> (CheckInResult, Outbox) {
        guard
            let row = try await connection.first(
                """
                SELECT last_check_in_at, check_in_interval_seconds, paused_until, first_name, last_name, phone FROM users WHERE id = \(userID)
                """ + connection.forUpdate)
        else { throw DomainError.notFound("User \(userID)") }
        try CheckInRules.validateCheckIn(at: now, last: row.optionalDate("last_check_in_at"))
        let start = row.optionalDate("paused_until").flatMap { $0 > now ? $0 : nil } ?? now
        let interval = try CheckInInterval(seconds: TimeInterval(try row.int("check_in_interval_seconds")))
        let deadline = start + interval.seconds
        try await connection.query(
            """
            INSERT INTO check_ins (id, user_id, checked_in_at, source) VALUES (\(UUID()), \(userID), \(now), \(source.rawValue))
            """)
        try await connection.query(
            """
            UPDATE users SET last_check_in_at = \(now), check_in_deadline = \(deadline),
                escalated_for = NULL, escalate_at = NULL, updated_at = \(now)
            WHERE id = \(userID)
            """)
        var drafts: [NotificationDraft] = []
        var outbox = Outbox()
        if let active = try await Incidents.active(of: userID, in: connection), active.kind == .missedCheckIn {
            drafts = try await Incidents.resolve(
                active.id, as: .checkedIn, by: userID, ownerName: PersonName.inMessage(row),
                now: now, in: connection)
            outbox.change("alerts", .update, active.id, owner: userID, at: now)
        }
        // Under duress the all-clear would be a lie: the responders hear the warning instead.
        if duress { drafts = try await duressWarnings(for: userID, name: PersonName.inMessage(row), now: now, in: connection) }
        outbox.append(try await NotificationStore.outbox(drafts, now: now, in: connection))
        outbox.change("users", .update, userID.rawValue, owner: userID, at: now)
        return (CheckInResult(checkedInAt: now, deadline: deadline, interval: interval), outbox)
    }

    /// The caller's last check-in and interval.
    public func status(caller: Caller) async throws -> CheckInStatus {
        let userID = try caller.requireUser()
        guard
            let row = try await database.query(
                """
                SELECT last_check_in_at, check_in_interval_seconds FROM users WHERE id = \(SQLValue(userID.rawValue))
                """
            ).first
        else { throw DomainError.notFound("User \(userID)") }
        return CheckInStatus(
            lastCheckIn: row.optionalDate("last_check_in_at"),
            interval: try CheckInInterval(seconds: TimeInterval(try row.int("check_in_interval_seconds"))))
    }

    /// The caller's check-ins, newest first, at most `limit` (1…500).
    public func history(caller: Caller, limit: Int = 50) async throws -> [CheckInEntry] {
        let userID = try caller.requireUser()
        try CheckInRules.validateHistoryLimit(limit)
        return try await database.query(
            """
            SELECT id, checked_in_at, source FROM check_ins WHERE user_id = \(SQLValue(userID.rawValue))
            ORDER BY checked_in_at DESC, id LIMIT \(limit)
            """
        ).map { row in
            guard let source = CheckInSource(rawValue: try row.string("source")) else {
                throw DomainError.internal("Unknown check-in source \(row.optionalString("source") ?? "")")
            }
            return CheckInEntry(id: try row.uuid("id"), checkedInAt: try row.date("checked_in_at"), source: source)
        }
    }
}
