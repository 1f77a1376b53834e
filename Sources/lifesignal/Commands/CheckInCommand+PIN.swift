import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal check-in pin`: whether check-ins ask for a PIN; set or remove the PIN and the
/// duress PIN, through the PIN screen's reducer.
extension CheckInCommand {
    struct PIN: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pin",
            abstract: "Show, set or remove your check-in PIN and duress PIN.",
            discussion: """
                With a PIN, every check-in asks for it (the app, the link in a reminder, a text "OK 1234", a call, \
                `lifesignal check-in --pin`). Checking in with the duress PIN looks exactly like a normal check-in \
                and quietly tells all your responders you may be in danger.
                """)
        @OptionGroup var options: ClientOptions
        @Option(help: "The new PIN, 4 to 8 digits (- reads it from standard input).") var set: String?
        @Option(help: "With --set: a duress PIN, different from the PIN (- reads it from the next line of standard input).")
        var duress: String?
        @Flag(help: "Stop asking for a PIN: removes both PINs.") var remove = false

        func run() async throws {
            try await CommandOutput.run { try await change() }
        }

        @MainActor
        func change() async throws {
            if remove && set != nil { throw DomainError.invalidArgument("Give --set or --remove, not both") }
            if duress != nil && set == nil { throw DomainError.invalidArgument("--duress needs --set beside it") }
            let screen = ScreenDriver(CheckInPINFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) {
                CheckInPINFeature()
            }
            try await screen.send(.task)
            if remove {
                try await screen.send(.removeTapped)
            } else if let set {
                try await screen.send(.pinChanged(try Self.read(set)))
                try await screen.send(.duressPINChanged(try duress.map(Self.read) ?? ""))
                try await screen.send(.saveTapped)
            }
            guard let settings = screen.state.settings else { throw DomainError.internal("The PIN settings were not loaded") }
            if options.json {
                try CommandOutput.json(["pin": settings.hasPIN, "duress_pin": settings.hasDuressPIN])
            } else if settings.hasPIN {
                print(settings.hasDuressPIN ? "Check-ins ask for your PIN. You have a duress PIN too." : "Check-ins ask for your PIN.")
            } else {
                print("Check-ins do not ask for a PIN.")
            }
        }

        /// The PIN as given, or the next line of standard input for `-`.
        static func read(_ value: String) throws -> String {
            guard value == "-" else { return value }
            guard let line = readLine(strippingNewline: true) else { throw DomainError.invalidArgument("No PIN on standard input") }
            return line.trimmingCharacters(in: .whitespaces)
        }
    }
}
