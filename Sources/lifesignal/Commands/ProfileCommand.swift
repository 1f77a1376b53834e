import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal profile [show|set]`: my name, note and settings as my contacts see them,
/// through the Profile and check-in settings screens' reducers.
struct ProfileCommand: AsyncParsableCommand {
    typealias Screen = ScreenDriver<ProfileFeature.State, ProfileFeature.Action>

    /// Runs `body` on the Profile screen with the profile loaded; its live stream is ended
    /// afterwards, as when the screen closes.
    @MainActor
    static func withScreen<T>(_ options: ClientOptions, _ body: (Screen) async throws -> T) async throws -> T {
        let screen = Screen(ProfileFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { ProfileFeature() }
        try await screen.start(.task) { $0.profile != nil }
        defer { screen.store.send(.onDisappear) }
        return try await body(screen)
    }

    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Show or change your profile and check-in settings.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your profile.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run { try await show() }
        }

        @MainActor
        func show() async throws {
            let profile = try await ProfileCommand.withScreen(options) { $0.state.profile }
            if let profile { try ProfileCommand.print(profile, json: options.json) }
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
            try await CommandOutput.run { try await change() }
        }

        @MainActor
        func change() async throws {
            let interval = try intervalHours.map { (hours) throws(DomainError) in try CheckInInterval.hours(hours) }
            let lead = try reminder.map { (name) throws(DomainError) -> ReminderLead in
                guard let lead = ReminderLead(rawValue: name) else { throw .invalidArgument("--reminder is none, 30_minutes or 2_hours, not \"\(name)\"") }
                return lead
            }
            if firstName != nil || lastName != nil || note != nil {
                try await ProfileCommand.withScreen(options) { screen in
                    try await screen.send(.editTapped)
                    guard var draft = screen.state.draft else { return }
                    if let firstName { draft.firstName = firstName }
                    if let lastName { draft.lastName = lastName }
                    if let note { draft.emergencyNote = note }
                    try await screen.send(.draftChanged(draft))
                    try await screen.send(.saveTapped)
                }
            }
            if interval != nil || lead != nil {
                let settings = ScreenDriver(CheckInSettingsFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) {
                    CheckInSettingsFeature()
                }
                try await settings.send(.task)
                if let interval { try await settings.send(.intervalPicked(interval)) }
                if let lead { try await settings.send(.reminderPicked(lead)) }
                // The screen asks to confirm a change that moves the deadline; the command is the yes.
                if settings.state.pending != nil { try await settings.send(.confirmTapped) }
            }
            let profile = try await ProfileCommand.withScreen(options) { $0.state.profile }
            if let profile { try ProfileCommand.print(profile, json: options.json) }
        }
    }

    static func print(_ profile: UserProfile, json: Bool) throws {
        if json {
            var fields = [
                "id": PeoplePrinter.id(profile.id.rawValue), "first_name": profile.firstName, "last_name": profile.lastName,
                "phone": profile.phone, "emergency_note": profile.emergencyNote,
                "interval_seconds": String(profile.checkInIntervalSeconds), "reminder": profile.reminderLead.rawValue,
            ]
            // No QR code: the one on the profile links only while it is shown and until used
            // (`contacts qr` shows a live one), so printing it here would hand out a dead code.
            if let deadline = profile.deadline { fields["deadline"] = ContentValue.iso8601(deadline) }
            try CommandOutput.json(fields)
            return
        }
        Swift.print("\(profile.displayName) · \(profile.phone)")
        if !profile.emergencyNote.isEmpty { Swift.print("Emergency note: \(profile.emergencyNote)") }
        Swift.print("Checks in every \(profile.checkInIntervalSeconds / 3600) h; reminder: \(profile.reminderLead.rawValue)")
    }
}
