import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A responder of a person and the tier the person gave them.
struct TieredResponder: Sendable, Hashable {
    var person: UserID
    var responder: UserID
    var tier: Int
}

/// What both incident kinds share, inside the caller's transaction: who is told, who was told,
/// and how an incident ends. ``AlertService``, ``CheckInService`` and ``CheckInSweep`` write
/// incidents only through here, so "everyone told gets the all-clear" holds on every path.
enum Incidents {
    /// Responders of `people` who hear about missed check-ins (their own `notify_on_expiry`),
    /// with the tier each person gave them on their side of the relation.
    static func wantingResponders(of people: [UserID], in connection: any SQLConnection) async throws -> [TieredResponder] {
        var found: [TieredResponder] = []
        for start in stride(from: 0, to: people.count, by: 1000) {
            let list = SQL.join(people[start..<min(start + 1000, people.count)].map { "\($0)" }, separator: ", ")
            for row in try await connection.query(
                """
                SELECT r.contact_id AS person, r.user_id AS responder, p.tier
                FROM contacts r JOIN contacts p ON p.user_id = r.contact_id AND p.contact_id = r.user_id
                WHERE r.contact_id IN (\(list)) AND r.is_dependent = \(true) AND r.notify_on_expiry = \(true)
                ORDER BY r.contact_id, p.tier, r.user_id
                """)
            {
                found.append(
                    TieredResponder(
                        person: UserID(try row.uuid("person")), responder: UserID(try row.uuid("responder")),
                        tier: try row.int("tier")))
            }
        }
        return found
    }

    /// Every responder of `person` (an SOS tells them all at once), with their tiers.
    static func allResponders(of person: UserID, in connection: any SQLConnection) async throws -> [TieredResponder] {
        try await connection.query(
            """
            SELECT contact_id, tier FROM contacts WHERE user_id = \(person) AND is_responder = \(true) ORDER BY tier, contact_id
            """
        ).map { TieredResponder(person: person, responder: UserID(try $0.uuid("contact_id")), tier: try $0.int("tier")) }
    }

    /// Remembers that `told` were told about `alert` (a responder told twice keeps the first).
    static func record(_ told: [TieredResponder], alert: UUID, now: Date, in connection: any SQLConnection) async throws {
        try await record(told.map { (alert, $0) }, now: now, in: connection)
    }

    /// The same for (incident, responder) pairs of several incidents.
    static func record(_ told: [(UUID, TieredResponder)], now: Date, in connection: any SQLConnection) async throws {
        for start in stride(from: 0, to: told.count, by: 200) {
            let rows = told[start..<min(start + 200, told.count)].map { alert, entry -> SQL in
                "(\(alert), \(entry.responder), \(entry.tier), \(now))"
            }
            try await connection.query(
                "INSERT INTO alert_recipients (alert_id, responder_id, tier, notified_at) VALUES "
                    + SQL.join(rows, separator: ", ") + " ON CONFLICT (alert_id, responder_id) DO NOTHING")
        }
    }

    /// Everyone told about `alert`, any tier.
    static func recipients(of alert: UUID, in connection: any SQLConnection) async throws -> [TieredResponder] {
        guard let owner = try await connection.first("SELECT user_id FROM alerts WHERE id = \(alert)") else { return [] }
        let person = UserID(try owner.uuid("user_id"))
        return try await connection.query(
            """
            SELECT responder_id, tier FROM alert_recipients WHERE alert_id = \(alert) ORDER BY tier, responder_id
            """
        ).map { TieredResponder(person: person, responder: UserID(try $0.uuid("responder_id")), tier: try $0.int("tier")) }
    }

    /// The next tier above `tier` among `responders`, or `nil`.
    static func tier(after tier: Int, among responders: [TieredResponder]) -> Int? {
        responders.map(\.tier).filter { $0 > tier }.min()
    }

    /// Ends `alert` as `resolution` by `who` (nobody: the sweep) and writes the all-clear to
    /// everyone told, but `who`, whose words the caller writes. Returns the drafts; the caller
    /// adds the person's own message.
    static func resolve(
        _ alert: UUID, as resolution: AlertResolution, by who: UserID?, ownerName: String, now: Date,
        in connection: any SQLConnection
    ) async throws -> [NotificationDraft] {
        guard let row = try await connection.first("SELECT user_id, kind FROM alerts WHERE id = \(alert)") else { return [] }
        let owner = UserID(try row.uuid("user_id"))
        let kind = AlertKind(rawValue: try row.string("kind")) ?? .sos
        try await connection.query(
            """
            UPDATE alerts SET status = 'resolved', resolution = \(resolution.rawValue), resolved_at = \(now), resolved_by = \(who),
                next_tier_at = NULL, next_repeat_at = NULL
            WHERE id = \(alert)
            """)
        try await DeliveryFallback.cancel(alert: alert, now: now, in: connection)
        let byName: String?
        if let who, who != owner, let person = try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(who)") {
            byName = PersonName.inMessage(person)
        } else {
            byName = nil
        }
        let message = allClear(resolution, kind: kind, name: ownerName, by: byName)
        return try await recipients(of: alert, in: connection).filter { $0.responder != who }.map {
            NotificationDraft(recipient: $0.responder, type: message.type, title: message.title, body: message.body, contactID: owner, incident: alert)
        }
    }

    /// What everyone told hears when an incident ends.
    static func allClear(_ resolution: AlertResolution, kind: AlertKind, name: String, by responder: String?)
        -> (type: NotificationType, title: String, body: String)
    {
        switch (resolution, kind) {
        case (.checkedIn, _):
            (.checkInResumed, "\(name) checked in", "\(name) checked in again after missing a check-in.")
        case (.cancelled, .sos):
            (.alertCancelledReceived, "Alert cancelled", "\(name) cancelled their emergency alert.")
        case (.cancelled, .missedCheckIn):
            (.alertCancelledReceived, "\(name) is OK", "\(name) ended the missed check-in alert.")
        case (.markedSafe, _):
            (.markedSafe, "\(name) is safe", "\(responder ?? "A responder") confirmed \(name) is safe.")
        }
    }

    /// The active incident of `person`: its id and kind, locked on PostgreSQL.
    static func active(of person: UserID, in connection: any SQLConnection) async throws -> (id: UUID, kind: AlertKind)? {
        guard
            let row = try await connection.first(
                "SELECT id, kind FROM alerts WHERE user_id = \(person) AND status = 'active'" + connection.forUpdate)
        else { return nil }
        return (try row.uuid("id"), AlertKind(rawValue: try row.string("kind")) ?? .sos)
    }

    /// "14:30 UTC" — messages name times in UTC: the server does not know the reader's zone.
    static func clockTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d UTC", parts.hour ?? 0, parts.minute ?? 0)
    }

    /// "14:30 UTC on 2026-11-27", for times that may be days away.
    static func dayAndTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return clockTime(date) + String(format: " on %04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// Whether the person shared where they are, never the place itself: a message can leave
    /// by SMS, email or push, and the place is for the alert's page and the app, which only the
    /// person's responders reach (docs/security.md, "What leaves the server").
    static func sharedPlace(_ location: AlertLocation?) -> String {
        location == nil ? "" : " They shared where they are: the alert shows it."
    }
}
