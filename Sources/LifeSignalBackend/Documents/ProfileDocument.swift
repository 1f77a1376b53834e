import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// `users/{uid}` as the original app's Firestore user document, projected from the `users`
/// row (and the person's active alert), in its field names.
///
/// The original kept `name`, `phoneNumber`, `note`/`emergencyNote`, `checkInInterval` in
/// seconds and two reminder booleans; LifeSignal keeps first and last name apart and one
/// reminder lead, so the document carries both names (`firstName`, `lastName`, and `name`
/// joined) and the booleans are read from the lead. `phoneRegion` is the region of the
/// number's calling code. Times are microsecond timestamps, `null` when unset.
enum ProfileDocument {
    /// Everything the owner sees.
    static func owner(_ profile: UserProfile, createdAt: Date?, updatedAt: Date?, alert: (id: UUID, at: Date)?) -> [String: DocumentValue] {
        let name = [profile.firstName, profile.lastName].filter { !$0.isEmpty }.joined(separator: " ")
        return [
            "uid": .string(profile.id.description),
            "name": .string(name),
            "firstName": .string(profile.firstName),
            "lastName": .string(profile.lastName),
            "phoneNumber": .string(profile.phone),
            "phoneRegion": .string(region(of: profile.phone)),
            "emergencyNote": .string(profile.emergencyNote),
            "note": .string(profile.emergencyNote),
            "qrCodeId": .string(profile.qrCodeID.uuidString.lowercased()),
            "checkInInterval": .integer(Int64(profile.checkInIntervalSeconds)),
            "lastCheckedIn": .time(profile.lastCheckIn),
            "expirationTimestamp": .time(profile.deadline),
            "notify30MinBefore": .bool(profile.reminderLead == .thirtyMinutes),
            "notify2HoursBefore": .bool(profile.reminderLead == .twoHours),
            "notificationEnabled": .bool(profile.notificationsEnabled),
            "manualAlertActive": .bool(alert != nil),
            "manualAlertTimestamp": .time(alert?.at),
            "profileImageURL": .text(profile.avatarURL),
            "profileComplete": .bool(profile.isOnboarded),
            "createdAt": .time(createdAt),
            "lastUpdated": .time(updatedAt),
        ]
    }

    /// What a contact may read of `users/{cid}`: exactly what their contact list shows of
    /// that person (``ContactSummary``) — name, phone, note and picture, and the check-in and
    /// alert only when the person is their dependent. Never the QR code, settings or times
    /// of the account.
    static func contactView(_ contact: ContactSummary) -> [String: DocumentValue] {
        var fields: [String: DocumentValue] = [
            "uid": .string(contact.id.description),
            "name": .string(contact.name),
            "phoneNumber": .string(contact.phone),
            "emergencyNote": .string(contact.emergencyNote),
            "note": .string(contact.emergencyNote),
            "profileImageURL": .text(contact.avatarURL),
        ]
        if contact.roles.isDependent {
            fields["lastCheckedIn"] = .time(contact.lastCheckIn)
            fields["expirationTimestamp"] = .time(contact.deadline)
            fields["checkInInterval"] = contact.checkInIntervalSeconds.map { .integer(Int64($0)) } ?? .null
            fields["manualAlertActive"] = .bool(contact.hasActiveSOS)
            fields["manualAlertTimestamp"] = .time(contact.alertActivatedAt)
        }
        return fields
    }

    /// The ISO code of the first known region whose calling code starts the number and
    /// whose national length fits; `US` (the original default) when none does.
    static func region(of phone: String) -> String {
        let digits = phone.hasPrefix("+") ? String(phone.dropFirst()) : phone
        let region = PhoneRegion.all.first { region in
            digits.hasPrefix(region.callingCode) && region.nationalDigits.contains(digits.count - region.callingCode.count)
        }
        return region?.id ?? PhoneRegion.unitedStates.id
    }

    /// The owner's document, or `nil` when the account is gone.
    static func load(_ user: UserID, in connection: any SQLConnection) async throws -> DocumentSnapshot? {
        guard
            let row = try await connection.first(
                SQL.raw("SELECT \(UserProfile.columns), created_at, updated_at FROM users") + " WHERE id = \(user)")
        else { return nil }
        let profile = try UserProfile(row: row)
        let alert = try await connection.first(
            "SELECT id, activated_at FROM alerts WHERE user_id = \(user) AND status = 'active'")
        let createdAt = row.optionalDate("created_at")
        let updatedAt = row.optionalDate("updated_at")
        return DocumentSnapshot(
            path: try DocumentPath(segments: ["users", user.description]),
            data: owner(
                profile, createdAt: createdAt, updatedAt: updatedAt,
                alert: try alert.map { (try $0.uuid("id"), try $0.date("activated_at")) }),
            createTime: createdAt.map(DocumentTimestamp.truncated), updateTime: updatedAt.map(DocumentTimestamp.truncated))
    }
}
