import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension UserProfile {
    /// A row selected with ``columns``. (Another module's struct: it must go through `self.init`.)
    init(row: SQLRow) throws {
        self.init(
            id: UserID(try row.uuid("id")), firstName: try row.string("first_name"), lastName: try row.string("last_name"),
            emergencyNote: try row.string("emergency_note"), phone: try row.string("phone"), avatarURL: row.optionalString("avatar_url"),
            notificationsEnabled: try row.bool("notifications_enabled"),
            checkInIntervalSeconds: try row.int("check_in_interval_seconds"),
            reminderLead: try ReminderLead(seconds: row.optionalInt("reminder_lead_seconds").map { TimeInterval($0) }),
            lastCheckIn: row.optionalDate("last_check_in_at"), deadline: row.optionalDate("check_in_deadline"),
            qrCodeID: try row.uuid("qr_code_id"))
    }

    static let columns = """
        id, first_name, last_name, emergency_note, phone, avatar_url, notifications_enabled, check_in_interval_seconds,
        reminder_lead_seconds, last_check_in_at, check_in_deadline, qr_code_id
        """
}

/// The account: `update-user-profile`, `update-check-in-settings`, `delete-user-account`.
public struct ProfileService: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    public func profile(caller: Caller) async throws -> UserProfile {
        let me = try caller.requireUser()
        guard let row = try await database.query(SQL.raw("SELECT \(UserProfile.columns) FROM users") + " WHERE id = \(me)").first
        else { throw DomainError.notFound("User \(me)") }
        return try UserProfile(row: row)
    }

    /// Changes the given fields; every field is checked before anything is written.
    public func update(caller: Caller, _ update: ProfileUpdate) async throws -> UserProfile {
        let me = try caller.requireUser()
        var sets: [SQL] = []
        if let first = update.firstName { sets.append("first_name = \(try ProfileRules.name(first, field: "First name"))") }
        if let last = update.lastName { sets.append("last_name = \(try ProfileRules.name(last, field: "Last name"))") }
        if let note = update.emergencyNote { sets.append("emergency_note = \(try ProfileRules.note(note))") }
        if let phone = update.phone {
            // Others see this number, so it must be one the person proved with a code; a new
            // number goes through the phone change (`PUT /auth/v1/user`), which sets it here.
            let e164 = try PhoneNumber(phone).e164
            let verified = try await database.transaction { try await ContactQueries.verifiedPhone(of: me, in: $0) }
            guard e164 == verified else {
                throw DomainError.failedPrecondition(
                    "The phone number must be the one you verified with a code; change it through the phone change, which sends a code to the new number")
            }
            sets.append("phone = \(e164)")
        }
        if let avatar = update.avatarURL { sets.append("avatar_url = \(try ProfileRules.avatarURL(avatar))") }
        if let enabled = update.notificationsEnabled { sets.append("notifications_enabled = \(enabled)") }
        return try await write(me, sets)
    }

    /// Sets the check-in interval and reminder lead (either may be left as is) and moves the
    /// deadline to last check-in + the new interval. A reminder must come before the start of
    /// the interval it belongs to, so the lead must be shorter than the interval.
    public func updateCheckInSettings(caller: Caller, interval: CheckInInterval?, reminderLead: ReminderLead?) async throws -> UserProfile {
        let me = try caller.requireUser()
        let now = clock.now()
        let (record, outbox): (UserProfile, Outbox) = try await database.transaction { connection in
            guard
                let row = try await connection.first(
                    SQL.raw("SELECT \(UserProfile.columns) FROM users") + " WHERE id = \(me)" + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            let current = try UserProfile(row: row)
            let seconds = interval.map { Int($0.seconds) } ?? current.checkInIntervalSeconds
            let lead = reminderLead ?? current.reminderLead
            try CheckInSettings(interval: CheckInInterval(clamping: TimeInterval(seconds)), reminderLead: lead).validate()
            // While check-ins are paused the interval runs from the end of the pause (issue 19).
            let pausedUntil = try await connection.first("SELECT paused_until FROM users WHERE id = \(me)")?.optionalDate("paused_until")
            let start = pausedUntil.flatMap { $0 > now ? $0 : nil }
            let deadline = (start ?? current.lastCheckIn).map { $0.addingTimeInterval(TimeInterval(seconds)) }
            guard
                let updated = try await connection.first(
                    SQL(
                        """
                        UPDATE users SET check_in_interval_seconds = $1, reminder_lead_seconds = $2, check_in_deadline = $3,
                            updated_at = $4 WHERE id = $5 RETURNING
                        """, bindings: [.int(Int64(seconds)), SQLValue(lead.seconds.map { Int($0) }), SQLValue(deadline), .timestamp(now), .uuid(me.rawValue)])
                        + SQL.raw(" " + UserProfile.columns))
            else { throw DomainError.notFound("User \(me)") }
            var outbox = Outbox()
            outbox.change("users", .update, me.rawValue, owner: me, at: now)
            return (try UserProfile(row: updated), outbox)
        }
        await notifier.deliver(outbox)
        return record
    }

    /// Deletes the person: their account, sessions, profile, both sides of every relation,
    /// pings, alerts, notifications, tokens and invitations (by foreign-key cascade, in one
    /// transaction). Former contacts are told.
    public func deleteAccount(caller: Caller) async throws {
        let me = try caller.requireUser()
        let now = clock.now()
        let outbox: Outbox = try await database.transaction { connection in
            guard
                let person = try await connection.first(
                    "SELECT id, first_name, last_name, phone FROM users WHERE id = \(me)" + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            let contacts = try await connection.query("SELECT contact_id FROM contacts WHERE user_id = \(me)" + connection.forUpdate)
                .map { UserID(try $0.uuid("contact_id")) }
            if let phone = try await ContactQueries.verifiedPhone(of: me, in: connection) {
                try await connection.query("DELETE FROM contact_invitations WHERE invitee_phone = \(phone)")
            }
            let name = PersonName.inMessage(person)
            var outbox = try await NotificationStore.outbox(
                contacts.map {
                    NotificationDraft(
                        recipient: $0, type: .contactRemoved, title: "Contact removed",
                        body: "\(name) deleted their account.")
                }, now: now, in: connection)
            try await connection.query("DELETE FROM auth_users WHERE id = \(me)")
            outbox.change("users", .delete, me.rawValue, owner: me, at: now)
            return outbox
        }
        await notifier.deliver(outbox)
    }

    private func write(_ me: UserID, _ sets: [SQL]) async throws -> UserProfile {
        let now = clock.now()
        let (record, outbox): (UserProfile, Outbox) = try await database.transaction { connection in
            let assignments = SQL.join(sets + ["updated_at = \(now)"], separator: ", ")
            guard
                let row = try await connection.first(
                    "UPDATE users SET \(assignments) WHERE id = \(me) RETURNING " + SQL.raw(UserProfile.columns))
            else { throw DomainError.notFound("User \(me)") }
            var outbox = Outbox()
            outbox.change("users", .update, me.rawValue, owner: me, at: now)
            return (try UserProfile(row: row), outbox)
        }
        await notifier.deliver(outbox)
        return record
    }
}
