import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal ping send|answer|clear`: "are you OK?" between responders and dependents.
struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping", abstract: "Ping a dependent, answer your responders' pings, or withdraw a ping.",
        subcommands: [Send.self, Answer.self, Clear.self])

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Ask a dependent to show they are OK.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The dependent: their id or name.") var dependent: String

        func run() async throws {
            try await CommandOutput.run {
                let adapters = try options.adapters()
                let contact = try ContactReference.resolve(dependent, in: try await adapters.contactsClient.contacts().contacts)
                let id = try await adapters.pingClient.ping(contact.id)
                if options.json { try CommandOutput.json(["ping_id": PeoplePrinter.id(id)]) } else { print("Pinged \(contact.name).") }
            }
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
            try await CommandOutput.run {
                let adapters = try options.adapters()
                if all {
                    let count = try await adapters.pingClient.respondToAll()
                    if options.json { try CommandOutput.json(["answered": count]) } else {
                        print(count == 0 ? "No pings were waiting." : "Answered \(count) ping\(count == 1 ? "" : "s").")
                    }
                    return
                }
                let contact = try ContactReference.resolve(responder ?? "", in: try await adapters.contactsClient.contacts().contacts)
                try await adapters.pingClient.respond(contact.id)
                if options.json { try CommandOutput.json(["answered": 1]) } else { print("\(contact.name) has been told you are OK.") }
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Withdraw a ping you sent.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The dependent: their id or name.") var dependent: String

        func run() async throws {
            try await CommandOutput.run {
                let adapters = try options.adapters()
                let contact = try ContactReference.resolve(dependent, in: try await adapters.contactsClient.contacts().contacts)
                try await adapters.pingClient.clear(contact.id)
                if options.json { try CommandOutput.json(["cleared": PeoplePrinter.id(contact.id.rawValue)]) } else { print("Ping to \(contact.name) withdrawn.") }
            }
        }
    }
}
