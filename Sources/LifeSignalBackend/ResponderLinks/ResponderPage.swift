import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// What a responder link's page shows: only what a responder of the person may see
/// (docs/security.md, "Who may see and change what"): their name and phone, their emergency
/// note, when they last checked in, what happened and when, and the location they shared.
public struct ResponderPage: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case sos
        case missedCheckIn = "missed_check_in"
    }

    public var alertID: UUID
    public var kind: Kind
    public var personName: String
    /// The number the person proved with a code (E.164), for the page's `tel:` link.
    public var personPhone: String
    public var emergencyNote: String
    /// When the SOS was raised, or when the missed check-in was noticed.
    public var raisedAt: Date
    /// The deadline that passed, for a missed check-in.
    public var missedDeadline: Date?
    public var lastCheckInAt: Date?
    /// The person paused check-ins until then (responders are told so).
    public var pausedUntil: Date?
    public var location: SharedLocation?
    /// When this link's responder said they are on it, if they have.
    public var respondedAt: Date?
    /// Other responders who said they are on it, by display name.
    public var otherResponders: [String]
}

/// A location the person shared with an alert.
public struct SharedLocation: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres, when the phone said.
    public var accuracy: Double?
    public var recordedAt: Date?
}

/// What a responder link leads to at the moment it is opened.
public enum ResponderPageState: Sendable, Equatable {
    /// The alert is active and the link's responder is still a responder of its owner.
    case active(ResponderPage)
    /// This link's responder marked the person safe: the page says so, and nothing about the
    /// person (the alert is over).
    case markedSafeByYou
    /// Anything else: the alert is over or gone, or the responder is no longer one. The page
    /// shows nothing, and the same nothing whatever the reason.
    case ended
}

extension LifeSignalBackend {
    /// The page for a verified link, checked now: the alert must be active and the link's
    /// responder must still be a responder of the alert's owner (a dropped responder's link dies
    /// at once, whatever its expiry).
    public func responderPage(for link: ResponderLink) async throws -> ResponderPageState {
        let now = clock.now()
        return try await database.transaction { connection in
            // `SELECT *`: the alert's kind, location and resolution columns are read when they
            // exist, so the page works before and after the migrations that add them.
            guard let alert = try await connection.first("SELECT * FROM alerts WHERE id = \(link.alertID)") else { return .ended }
            let owner = UserID(try alert.uuid("user_id"))
            guard try await ContactPairs.roles(of: owner, for: link.responder, in: connection)?.isDependent == true else {
                return .ended
            }
            guard try alert.string("status") == AlertStatus.active.rawValue else {
                let resolution = alert.optionalString("resolution")
                let byYou = alert.optionalUUID("resolved_by") == link.responder.rawValue
                return byYou && (resolution == nil || resolution == "marked_safe") ? .markedSafeByYou : .ended
            }
            guard
                let person = try await connection.first(
                    """
                    SELECT first_name, last_name, phone, emergency_note, last_check_in_at, check_in_deadline, paused_until
                    FROM users WHERE id = \(owner)
                    """)
            else { return .ended }
            let kind = alert.optionalString("kind").flatMap(ResponderPage.Kind.init(rawValue:)) ?? .sos
            var mine: Date?
            var others: [String] = []
            for row in try await connection.query(
                """
                SELECT r.responder_id, r.responded_at, u.first_name, u.last_name, u.phone
                FROM alert_responses r JOIN users u ON u.id = r.responder_id
                WHERE r.alert_id = \(link.alertID) ORDER BY r.responded_at, r.responder_id
                """)
            {
                if try row.uuid("responder_id") == link.responder.rawValue {
                    mine = try row.date("responded_at")
                } else {
                    others.append(PersonName.display(row))
                }
            }
            return .active(
                ResponderPage(
                    alertID: link.alertID, kind: kind, personName: PersonName.display(person),
                    personPhone: person.optionalString("phone") ?? "", emergencyNote: person.optionalString("emergency_note") ?? "",
                    raisedAt: try alert.date("activated_at"),
                    missedDeadline: kind == .missedCheckIn ? Self.missedDeadline(alert, person) : nil,
                    lastCheckInAt: person.optionalDate("last_check_in_at"),
                    pausedUntil: person.optionalDate("paused_until").flatMap { $0 > now ? $0 : nil }, location: Self.sharedLocation(alert),
                    respondedAt: mine, otherResponders: others))
        }
    }

    private static func missedDeadline(_ alert: SQLRow, _ person: SQLRow) -> Date? {
        alert.optionalDate("deadline") ?? alert.optionalDate("missed_deadline") ?? alert.optionalDate("check_in_deadline")
            ?? person.optionalDate("check_in_deadline")
    }

    /// The location an alert carries, under the column names it may have; none when absent or
    /// out of range.
    private static func sharedLocation(_ alert: SQLRow) -> SharedLocation? {
        func number(_ names: String...) -> Double? {
            for name in names {
                switch alert[name] {
                case .double(let value): return value
                case .int(let value): return Double(value)
                case .text(let text), .literal(let text): if let value = Double(text) { return value }
                default: continue
                }
            }
            return nil
        }
        guard let latitude = number("latitude", "location_latitude", "lat"),
            let longitude = number("longitude", "location_longitude", "lng", "lon"),
            latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        let accuracy = number("accuracy", "location_accuracy", "accuracy_meters", "location_accuracy_meters")
        let at = alert.optionalDate("location_at") ?? alert.optionalDate("location_recorded_at") ?? alert.optionalDate("located_at")
        return SharedLocation(
            latitude: latitude, longitude: longitude, accuracy: accuracy.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
            recordedAt: at)
    }
}
