import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// The original app's documents (`users/{uid}`, `users/{uid}/contacts/{cid}`, LifeSignal's
/// `users/{uid}/invitations/{id}`, `qr_lookup/{uid}`) ↔ the domain's people.
///
/// Times pass through the functions' text form on the way in, so a time read from a
/// document is the same `Date` as the one a function's reply gives (a contact added through
/// `add-contact-by-qr` equals the one listed from the collection).
enum FirestorePeopleMapping {
    /// The fields an update of `users/{uid}` sends for `changes`, named as the document
    /// names them. The phone goes as E.164, as the original stored it, so a number that is
    /// not one is refused here (``DomainError/invalidPhone(_:)``) before anything is sent.
    static func fields(_ changes: ProfileUpdate) throws(DomainError) -> [String: DocumentValue] {
        var fields: [String: DocumentValue] = [:]
        if let first = changes.firstName { fields["firstName"] = .string(first) }
        if let last = changes.lastName { fields["lastName"] = .string(last) }
        if let note = changes.emergencyNote { fields["emergencyNote"] = .string(note) }
        if let phone = changes.phone { fields["phoneNumber"] = .string(try PhoneNumber(phone).e164) }
        if let avatar = changes.avatarURL { fields["profileImageURL"] = avatar.isEmpty ? .null : .string(avatar) }
        if let enabled = changes.notificationsEnabled { fields["notificationEnabled"] = .bool(enabled) }
        return fields
    }

    static func profile(_ document: DocumentSnapshot) throws -> UserProfile {
        let fields = Fields(document)
        let lead: ReminderLead = try fields.bool("notify2HoursBefore") ? .twoHours : try fields.bool("notify30MinBefore") ? .thirtyMinutes : .none
        return UserProfile(
            id: try fields.userID("uid"), firstName: try fields.string("firstName"), lastName: try fields.string("lastName"),
            emergencyNote: try fields.string("emergencyNote"), phone: try fields.string("phoneNumber"),
            avatarURL: try fields.optionalString("profileImageURL"), notificationsEnabled: try fields.bool("notificationEnabled"),
            checkInIntervalSeconds: try fields.int("checkInInterval"), reminderLead: lead,
            lastCheckIn: try fields.optionalDate("lastCheckedIn"), deadline: try fields.optionalDate("expirationTimestamp"),
            qrCodeID: try fields.uuid("qrCodeId"))
    }

    static func contact(_ document: DocumentSnapshot) throws -> ContactSummary {
        let fields = Fields(document)
        return ContactSummary(
            id: try fields.userID("uid"), name: try fields.string("name"), phone: try fields.string("phoneNumber"),
            roles: try ContactRoles(isResponder: try fields.bool("isResponder"), isDependent: try fields.bool("isDependent")),
            emergencyNote: try fields.string("emergencyNote"), avatarURL: try fields.optionalString("profileImageURL"),
            addedAt: try fields.date("addedAt"), notifyOnExpiry: try fields.bool("notifyOnExpiry"),
            lastCheckIn: try fields.optionalDate("lastCheckedIn"), deadline: try fields.optionalDate("expirationTimestamp"),
            checkInIntervalSeconds: try fields.optionalInt("checkInInterval"), isNonResponsive: try fields.bool("isNonResponsive"),
            activeAlertID: try fields.optionalString("manualAlertId").map(WireParse.uuid),
            alertActivatedAt: try fields.optionalDate("manualAlertTimestamp"),
            incomingPingAt: try fields.optionalDate("incomingPingTimestamp"), outgoingPingAt: try fields.optionalDate("outgoingPingTimestamp"),
            activeAlertKind: try fields.optionalString("alertKind").flatMap(AlertKind.init(rawValue:)))
    }

    /// An invitation and whether I sent it.
    static func invitation(_ document: DocumentSnapshot) throws -> (InvitationSummary, sent: Bool) {
        let fields = Fields(document)
        let statusName = try fields.string("status")
        guard let status = InvitationStatus(rawValue: statusName) else {
            throw DomainError.internal("Firestore sent the invitation status \"\(statusName)\"")
        }
        let invitation = InvitationSummary(
            id: try WireParse.uuid(document.path.id), inviterID: try fields.userID("inviterId"), inviterName: try fields.string("inviterName"),
            inviteePhone: try fields.string("inviteePhone"),
            roles: try ContactRoles(isResponder: try fields.bool("isResponder"), isDependent: try fields.bool("isDependent")),
            status: status, sentAt: try fields.date("sentAt"))
        return (invitation, try fields.string("direction") == "sent")
    }

    static func qrCodeOwner(_ document: DocumentSnapshot) throws -> QRCodeOwner {
        let fields = Fields(document)
        return QRCodeOwner(userID: try fields.userID("uid"), name: try fields.string("name"))
    }

    /// Typed reads of a document's fields; a field missing or of another type is a reply
    /// the adapter cannot use (``DomainError/internal(_:)``).
    struct Fields {
        let document: DocumentSnapshot
        init(_ document: DocumentSnapshot) { self.document = document }

        func value(_ key: String) -> DocumentValue? { document.data[key] }

        func bad(_ key: String, _ type: String) -> DomainError {
            .internal("Firestore document \(document.path) has no \(type) \(key)")
        }

        func string(_ key: String) throws -> String {
            guard case .string(let text)? = value(key) else { throw bad(key, "string") }
            return text
        }

        func optionalString(_ key: String) throws -> String? {
            if value(key) == nil || value(key) == .null { return nil }
            return try string(key)
        }

        func bool(_ key: String) throws -> Bool {
            guard case .bool(let flag)? = value(key) else { throw bad(key, "boolean") }
            return flag
        }

        func int(_ key: String) throws -> Int {
            guard case .integer(let number)? = value(key), let int = Int(exactly: number) else { throw bad(key, "integer") }
            return int
        }

        func optionalInt(_ key: String) throws -> Int? {
            if value(key) == nil || value(key) == .null { return nil }
            return try int(key)
        }

        func date(_ key: String) throws -> Date {
            guard case .timestamp(let time)? = value(key) else { throw bad(key, "timestamp") }
            return try WireParse.date(Timestamp.format(time))
        }

        func optionalDate(_ key: String) throws -> Date? {
            if value(key) == nil || value(key) == .null { return nil }
            return try date(key)
        }

        func uuid(_ key: String) throws -> UUID { try WireParse.uuid(try string(key)) }
        func userID(_ key: String) throws -> UserID { try WireParse.userID(try string(key)) }
    }
}
