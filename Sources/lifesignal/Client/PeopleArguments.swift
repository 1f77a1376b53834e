import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `--role responder|dependent|both`: what the other person is to me.
struct RoleOption: ParsableArguments {
    @Option(help: "What they are to you: responder (looks out for you), dependent (you look out for them) or both.")
    var role: String = "responder"

    func roles() throws(DomainError) -> ContactRoles {
        switch role.lowercased() {
        case "both": .both
        default: try ContactRoles(names: [role.lowercased()])
        }
    }
}

/// Finding a contact by what a person types: their id, or a name (case-insensitive, whole or
/// the start of it) that matches exactly one contact.
enum ContactReference {
    static func resolve(_ text: String, in contacts: [ContactSummary]) throws(DomainError) -> ContactSummary {
        if let id = UUID(uuidString: text) {
            guard let contact = contacts.first(where: { $0.id.rawValue == id }) else { throw .notFound("Contact \(text)") }
            return contact
        }
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        let exact = contacts.filter { $0.name.lowercased() == wanted }
        let matches = exact.isEmpty ? contacts.filter { $0.name.lowercased().hasPrefix(wanted) } : exact
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .notFound("Contact \"\(text)\"")
        default:
            throw .invalidArgument("\"\(text)\" matches \(matches.map(\.name).joined(separator: ", ")); use the contact's id")
        }
    }
}

/// How people, pings and notifications read on a terminal and in `--json`.
enum PeoplePrinter {
    static func id(_ id: UUID) -> String { id.uuidString.lowercased() }

    static func contactJSON(_ contact: ContactSummary) -> [String: String] {
        var json = ["id": id(contact.id.rawValue), "name": contact.name, "phone": contact.phone, "roles": contact.roles.names.joined(separator: ",")]
        if let deadline = contact.deadline { json["deadline"] = ContentValue.iso8601(deadline) }
        if let last = contact.lastCheckIn { json["last_check_in"] = ContentValue.iso8601(last) }
        if contact.hasActiveSOS { json["alert"] = "active" } else if contact.activeAlertID != nil { json["alert"] = "missed_check_in" }
        if contact.isNonResponsive { json["non_responsive"] = "true" }
        if let at = contact.incomingPingAt { json["pinged_me_at"] = ContentValue.iso8601(at) }
        if let at = contact.outgoingPingAt { json["pinged_at"] = ContentValue.iso8601(at) }
        return json
    }

    /// One line: name, roles, and what needs attention.
    static func line(_ contact: ContactSummary, now: Date) -> String {
        var parts = ["\(contact.name) (\(contact.roles.names.joined(separator: " & ")))", contact.phone]
        if contact.hasActiveSOS { parts.append("SOS ACTIVE") }
        if contact.isNonResponsive { parts.append("MISSED CHECK-IN") }
        if contact.roles.isDependent, let deadline = contact.deadline, !contact.isNonResponsive {
            let hours = deadline.timeIntervalSince(now) / 3600
            parts.append(hours >= 0 ? String(format: "deadline in %.1f h", hours) : String(format: "deadline passed %.1f h ago", -hours))
        }
        if contact.incomingPingAt != nil { parts.append("pinged you") }
        if contact.outgoingPingAt != nil { parts.append("you pinged") }
        parts.append(id(contact.id.rawValue))
        return parts.joined(separator: " · ")
    }

    static func notificationJSON(_ record: NotificationRecord) -> [String: String] {
        [
            "id": id(record.id), "type": record.type.rawValue, "title": record.title, "body": record.body,
            "read": record.isRead ? "true" : "false", "created_at": ContentValue.iso8601(record.createdAt),
        ]
    }

    static func line(_ record: NotificationRecord) -> String {
        "\(record.isRead ? " " : "•") \(ContentValue.iso8601(record.createdAt))  \(record.title): \(record.body)"
    }
}
