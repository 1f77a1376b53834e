import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A write to `users/{uid}` read as a change of the profile: the original security rule's
/// owner whitelist, mapped onto the profile service's own updates so every value passes the
/// same checks as `update-user-profile` and `update-check-in-settings`.
///
/// Everything else in the document is kept by LifeSignal itself — the id, the QR code (reset
/// through `reset-qr-code`), check-in times (`check-in`), the alert (`trigger-alert`), the
/// region and account times — and a write naming any of them is refused whole.
///
/// `name`, the original's one field, is split at its first space into first and last name
/// (each then held to the name rules); `note` and `emergencyNote` are one field; the two
/// reminder flags choose the one lead LifeSignal keeps (both true at once is refused).
struct ProfileDocumentChange {
    /// The fields an owner may write, as the original rule's whitelist (plus LifeSignal's
    /// split name).
    static let writable: Set<String> = [
        "name", "firstName", "lastName", "emergencyNote", "note", "phoneNumber", "profileImageURL",
        "notificationEnabled", "notify30MinBefore", "notify2HoursBefore", "checkInInterval",
    ]

    var profile = ProfileUpdate()
    var interval: CheckInInterval?
    var notify30: Bool?
    var notify2Hours: Bool?

    var changesProfile: Bool { profile != ProfileUpdate() }

    /// Reads top-level `fields` (a merge's data, or an update's field paths). The field set
    /// is checked before any value, so a forbidden field is ``DomainError/forbidden(_:)``
    /// whatever else the write holds.
    init(_ fields: [String: DocumentValue], path: DocumentPath) throws(DomainError) {
        if let refused = fields.keys.sorted().first(where: { !Self.writable.contains($0) }) {
            throw .forbidden(
                "\(refused) of \(path) is kept by LifeSignal and cannot be written; "
                    + "an owner may change only \(Self.writable.sorted().joined(separator: ", "))")
        }
        if let name = fields["name"] {
            guard fields["firstName"] == nil, fields["lastName"] == nil else {
                throw .invalidArgument("Write name, or firstName and lastName, not both")
            }
            let parts = try Self.text(name, "name").split(maxSplits: 1, whereSeparator: \.isWhitespace)
            guard parts.count == 2 else { throw .invalidArgument("name needs a first and a last name, or write firstName alone") }
            profile.firstName = String(parts[0])
            profile.lastName = String(parts[1])
        }
        if let first = fields["firstName"] { profile.firstName = try Self.text(first, "firstName") }
        if let last = fields["lastName"] { profile.lastName = try Self.text(last, "lastName") }
        var notes: Set<String> = []
        for key in ["emergencyNote", "note"] {
            if let value = fields[key] { notes.insert(try Self.text(value, key)) }
        }
        guard notes.count <= 1 else { throw .invalidArgument("emergencyNote and note are one field; they cannot differ") }
        profile.emergencyNote = notes.first
        if let phone = fields["phoneNumber"] { profile.phone = try Self.text(phone, "phoneNumber") }
        switch fields["profileImageURL"] {
        case nil: break
        case .null?: profile.avatarURL = ""
        case let value?: profile.avatarURL = try Self.text(value, "profileImageURL")
        }
        if let enabled = fields["notificationEnabled"] { profile.notificationsEnabled = try Self.flag(enabled, "notificationEnabled") }
        if let value = fields["notify30MinBefore"] { notify30 = try Self.flag(value, "notify30MinBefore") }
        if let value = fields["notify2HoursBefore"] { notify2Hours = try Self.flag(value, "notify2HoursBefore") }
        if notify30 == true, notify2Hours == true {
            throw .invalidArgument("One reminder is kept: set notify30MinBefore or notify2HoursBefore, not both")
        }
        if let value = fields["checkInInterval"] {
            let seconds: Double =
                switch value {
                case .integer(let number): Double(number)
                case .double(let number) where number.rounded() == number: number
                default: throw .invalidArgument("checkInInterval is a whole number of seconds")
                }
            interval = try CheckInInterval.seconds(seconds, field: "checkInInterval")
        }
    }

    /// The reminder lead after the flags: a flag set to true picks its lead; the current
    /// lead's flag set to false turns reminders off; anything else keeps it.
    func reminderLead(from current: ReminderLead) -> ReminderLead {
        if notify30 == true { return .thirtyMinutes }
        if notify2Hours == true { return .twoHours }
        if notify30 == false, current == .thirtyMinutes { return .none }
        if notify2Hours == false, current == .twoHours { return .none }
        return current
    }

    var changesSettings: Bool { interval != nil || notify30 != nil || notify2Hours != nil }

    /// The profile service's own checks, made before anything is written, so a write that
    /// changes both the profile and the settings fails whole.
    func validate(against current: UserProfile) throws(DomainError) {
        if let first = profile.firstName { _ = try ProfileRules.name(first, field: "First name") }
        if let last = profile.lastName { _ = try ProfileRules.name(last, field: "Last name") }
        if let note = profile.emergencyNote { _ = try ProfileRules.note(note) }
        if let phone = profile.phone { _ = try PhoneNumber(phone) }
        if let avatar = profile.avatarURL { _ = try ProfileRules.avatarURL(avatar) }
        let seconds = interval?.seconds ?? TimeInterval(current.checkInIntervalSeconds)
        try CheckInSettings(interval: CheckInInterval(clamping: seconds), reminderLead: reminderLead(from: current.reminderLead)).validate()
    }

    private static func text(_ value: DocumentValue, _ field: String) throws(DomainError) -> String {
        guard case .string(let text) = value else { throw .invalidArgument("\(field) is a string") }
        return text
    }

    private static func flag(_ value: DocumentValue, _ field: String) throws(DomainError) -> Bool {
        guard case .bool(let flag) = value else { throw .invalidArgument("\(field) is a boolean") }
        return flag
    }
}
