import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal alert on|off|status|respond|safe`: the SOS button, and answering a dependent's
/// incident ("I'm on it", "They're safe"), through the SOS and Dependents screens' reducers.
struct AlertCommand: AsyncParsableCommand {
    /// The SOS screen, with its current alert loaded.
    @MainActor
    static func sosScreen(_ options: ClientOptions) async throws -> ScreenDriver<SOSFeature.State, SOSFeature.Action> {
        let screen = ScreenDriver(SOSFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { SOSFeature() }
        try await screen.send(.task)
        return screen
    }

    static let configuration = CommandConfiguration(
        commandName: "alert", abstract: "Raise or cancel an SOS, see yours, or answer a dependent's.",
        subcommands: [On.self, Off.self, Status.self, Respond.self, Safe.self, Test.self])

    struct On: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Raise an SOS: every responder is told at once (and where you are, with --lat and --lon).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var place: LocationOptions

        func run() async throws {
            try await CommandOutput.run { try await raise() }
        }

        @MainActor
        func raise() async throws {
            let location = try place.location(now: Date())
            let screen = try await AlertCommand.sosScreen(options)
            guard !screen.state.isActive else { throw DomainError.failedPrecondition("An alert is already active") }
            // Passing a place is the person's choice to share it with this SOS.
            if let location { try await screen.send(.locationShared(location)) }
            // The screen asks "Send an SOS to all your responders?"; running this command is the yes.
            try await screen.send(.activateTapped)
            try await screen.send(.activationConfirmed)
            guard let alert = screen.state.activeAlert else { throw DomainError.internal("The alert was not raised") }
            if options.json {
                try CommandOutput.json([
                    "id": PeoplePrinter.id(alert.id), "status": alert.status.rawValue,
                    "activated_at": ContentValue.iso8601(alert.activatedAt),
                ])
            } else {
                print(
                    "SOS raised at \(ContentValue.iso8601(alert.activatedAt)): your responders have been told\(alert.location == nil ? "" : " where you are").")
            }
        }
    }

    struct Off: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel your SOS: your responders are told you are safe.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run { try await standDown() }
        }

        @MainActor
        func standDown() async throws {
            let screen = try await AlertCommand.sosScreen(options)
            guard screen.state.isActive else { throw DomainError.notFound("An active SOS") }
            try await screen.send(.deactivateTapped)
            if options.json { try CommandOutput.json(["status": "cancelled"]) } else { print(screen.state.notice ?? "SOS cancelled.") }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your SOS, if one is active, and who has answered it.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run { try await show() }
        }

        @MainActor
        func show() async throws {
            let alert = try await AlertCommand.sosScreen(options).state.activeAlert
            if options.json {
                try CommandOutput.json(AlertJSON(alert))
                return
            }
            guard let alert else {
                print("No SOS is active.")
                return
            }
            print("SOS active since \(ContentValue.iso8601(alert.activatedAt)).")
            for response in alert.responses.sorted(by: { $0.respondedAt < $1.respondedAt }) {
                print("  \(response.responderName) answered at \(ContentValue.iso8601(response.respondedAt))")
            }
            if alert.responses.isEmpty { print("  No responder has answered yet.") }
        }
    }

    struct Respond: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Tell a dependent you have seen their SOS and are on it.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The dependent: their id or name.") var dependent: String

        func run() async throws {
            try await CommandOutput.run { try await respond() }
        }

        @MainActor
        func respond() async throws {
            let screen = ScreenDriver(DependentsFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { DependentsFeature() }
            try await screen.send(.task)
            let contact = try ContactReference.resolve(dependent, in: screen.state.contacts.filter(\.roles.isDependent))
            guard let alertID = contact.activeAlertID else { throw DomainError.notFound("An active SOS from \(contact.name)") }
            try await screen.send(.respondToAlertTapped(alertID))
            if options.json {
                try CommandOutput.json(["alert_id": PeoplePrinter.id(alertID)])
            } else {
                print("\(contact.name) has been told you are responding.")
            }
        }
    }

    struct AlertJSON: Encodable {
        var active: Bool
        var id: String?
        var activatedAt: Date?
        var responders: [String]

        init(_ alert: AlertRecord?) {
            active = alert != nil
            id = alert.map { PeoplePrinter.id($0.id) }
            activatedAt = alert?.activatedAt
            responders = alert?.responses.sorted { $0.respondedAt < $1.respondedAt }.map(\.responderName) ?? []
        }

        enum CodingKeys: String, CodingKey {
            case active, id, responders
            case activatedAt = "activated_at"
        }
    }
}
