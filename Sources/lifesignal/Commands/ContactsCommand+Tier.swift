import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

extension ContactsCommand {
    /// `lifesignal contacts tier <responder> <n>`: who is told first after a missed deadline.
    struct Tier: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a responder in a tier (1 to 9): tier 1 is told first, each next tier after the tier delay.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The responder: their id or name.") var contact: String
        @Argument(help: "The tier, 1 to 9.") var tier: Int

        func run() async throws {
            try await CommandOutput.run { try await change() }
        }

        @MainActor
        func change() async throws {
            let contacts = try await ContactsCommand.screen(options).state.contacts
            let responder = try ContactReference.resolve(contact, in: contacts.filter(\.roles.isResponder))
            let screen = try await CheckInCommand.escalationScreen(options)
            try await screen.send(.tierPicked(responder: responder.id, tier: tier))
            let stored = screen.state.escalation?.responders.first { $0.id == responder.id }
            guard let stored else { throw DomainError.notFound("Responder \(responder.name)") }
            if options.json {
                try CommandOutput.json(["id": PeoplePrinter.id(stored.id.rawValue), "name": stored.name, "tier": String(stored.tier)])
            } else {
                print("\(stored.name) is in tier \(stored.tier).")
            }
        }
    }
}
