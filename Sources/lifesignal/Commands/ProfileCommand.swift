import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal profile [show|set]`: my name, note and settings as my contacts see them.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or change your profile and check-in settings.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your profile.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run { try ProfileCommand.print(try await options.adapters().userClient.profile(), json: options.json) }
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the fields given; the rest stay as they are.")
        @OptionGroup var options: ClientOptions
        @Option var firstName: String?
        @Option var lastName: String?
        @Option(help: "What a responder should know in an emergency.") var note: String?
        @Option(help: "Check-in interval in hours (1 to 168).") var intervalHours: Double?
        @Option(help: "Reminder before the deadline: none, 30_minutes or 2_hours.") var reminder: String?

        func run() async throws {
            try await CommandOutput.run {
                let adapters = try options.adapters()
                let interval = try intervalHours.map { (hours) throws(DomainError) in try CheckInInterval.hours(hours) }
                let lead = try reminder.map { (name) throws(DomainError) -> ReminderLead in
                    guard let lead = ReminderLead(rawValue: name) else { throw .invalidArgument("--reminder is none, 30_minutes or 2_hours, not \"\(name)\"") }
                    return lead
                }
                if firstName != nil || lastName != nil || note != nil {
                    _ = try await adapters.userClient.update(ProfileUpdate(firstName: firstName, lastName: lastName, emergencyNote: note))
                }
                if interval != nil || lead != nil {
                    _ = try await adapters.checkInClient.updateSettings(interval, lead)
                }
                try ProfileCommand.print(try await adapters.userClient.profile(), json: options.json)
            }
        }
    }

    static func print(_ profile: UserProfile, json: Bool) throws {
        if json {
            var fields = ["id": PeoplePrinter.id(profile.id.rawValue), "first_name": profile.firstName, "last_name": profile.lastName,
                          "phone": profile.phone, "emergency_note": profile.emergencyNote,
                          "interval_seconds": String(profile.checkInIntervalSeconds), "reminder": profile.reminderLead.rawValue,
                          "qr_code_id": PeoplePrinter.id(profile.qrCodeID)]
            if let deadline = profile.deadline { fields["deadline"] = ContentValue.iso8601(deadline) }
            try CommandOutput.json(fields)
            return
        }
        Swift.print("\(profile.displayName) · \(profile.phone)")
        if !profile.emergencyNote.isEmpty { Swift.print("Emergency note: \(profile.emergencyNote)") }
        Swift.print("Checks in every \(profile.checkInIntervalSeconds / 3600) h; reminder: \(profile.reminderLead.rawValue)")
    }
}
