import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal ping send|answer|clear`: "are you OK?" between responders and dependents,
/// through the Pings screen's reducer.
struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping", abstract: "Ping a dependent, answer your responders' pings, or withdraw a ping.",
        subcommands: [Send.self, Answer.self, Clear.self])

    typealias Screen = ScreenDriver<PingsFeature.State, PingsFeature.Action>

    /// The Pings screen with my contacts loaded.
    @MainActor
    static func screen(_ options: ClientOptions) async throws -> Screen {
        let screen = Screen(PingsFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { PingsFeature() }
        try await screen.send(.task)
        return screen
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask a dependent to show they are OK.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The dependent: their id or name.") var dependent: String

        func run() async throws {
            try await CommandOutput.run { try await ping() }
        }

        @MainActor
        func ping() async throws {
            let screen = try await PingCommand.screen(options)
            let contact = try ContactReference.resolve(dependent, in: screen.state.contacts.filter(\.roles.isDependent))
            try await screen.send(.pingTapped(contact.id))
            if options.json { try CommandOutput.json(["pinged": PeoplePrinter.id(contact.id.rawValue)]) } else { print("Pinged \(contact.name).") }
        }
    }

    struct Answer: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Tell a responder (or all with --all) that you are OK.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The responder: their id or name.") var responder: String?
        @Flag(help: "Answer every waiting ping.") var all = false

        func validate() throws {
            guard all != (responder != nil) else { throw ValidationError("Name one responder, or pass --all") }
        }

        func run() async throws {
            try await CommandOutput.run { try await answer() }
        }

        @MainActor
        func answer() async throws {
            let screen = try await PingCommand.screen(options)
            let waiting = screen.state.badge
            if all {
                // The screen asks "Answer all pings?"; running the command is the yes. With
                // nothing waiting it asks nothing and sends nothing.
                try await screen.send(.respondToAllTapped)
                if screen.state.isConfirmingRespondAll { try await screen.send(.respondToAllConfirmed) }
                if options.json {
                    try CommandOutput.json(["answered": waiting])
                } else {
                    print(waiting == 0 ? "No pings were waiting." : "Answered \(waiting) ping\(waiting == 1 ? "" : "s").")
                }
                return
            }
            let contact = try ContactReference.resolve(responder ?? "", in: screen.state.contacts.filter(\.roles.isResponder))
            try await screen.send(.respondTapped(contact.id))
            if options.json { try CommandOutput.json(["answered": 1]) } else { print("\(contact.name) has been told you are OK.") }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Withdraw a ping you sent.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The dependent: their id or name.") var dependent: String

        func run() async throws {
            try await CommandOutput.run { try await withdraw() }
        }

        @MainActor
        func withdraw() async throws {
            let screen = try await PingCommand.screen(options)
            let contact = try ContactReference.resolve(dependent, in: screen.state.contacts.filter(\.roles.isDependent))
            try await screen.send(.withdrawTapped(contact.id))
            if options.json { try CommandOutput.json(["cleared": PeoplePrinter.id(contact.id.rawValue)]) } else { print("Ping to \(contact.name) withdrawn.") }
        }
    }
}
