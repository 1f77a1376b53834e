import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal alert on|off|status|respond`: the SOS button, and answering a dependent's.
struct AlertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert", abstract: "Raise or cancel an SOS, see yours, or answer a dependent's.",
        subcommands: [On.self, Off.self, Status.self, Respond.self])

    struct On: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Raise an SOS: every responder is told at once.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run {
                let alert = try await options.adapters().alertClient.trigger()
                if options.json {
                    try CommandOutput.json(["id": PeoplePrinter.id(alert.id), "status": alert.status.rawValue,
                                            "activated_at": ContentValue.iso8601(alert.activatedAt)])
                } else {
                    print("SOS raised at \(ContentValue.iso8601(alert.activatedAt)): your responders have been told.")
                }
            }
        }
    }

    struct Off: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Cancel your SOS: your responders are told you are safe.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run {
                try await options.adapters().alertClient.cancel(nil)
                if options.json { try CommandOutput.json(["status": "cancelled"]) } else { print("SOS cancelled: your responders have been told you are safe.") }
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your SOS, if one is active, and who has answered it.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run {
                let alert = try await options.adapters().alertClient.activeAlert(nil)
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
    }

    struct Respond: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Tell a dependent you have seen their SOS and are on it.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The dependent: their id or name.") var dependent: String

        func run() async throws {
            try await CommandOutput.run {
                let adapters = try options.adapters()
                let contact = try ContactReference.resolve(dependent, in: try await adapters.contactsClient.contacts().contacts)
                guard let alert = try await adapters.alertClient.activeAlert(contact.id) else {
                    throw DomainError.notFound("An active SOS from \(contact.name)")
                }
                let at = try await adapters.alertClient.respond(alert.id)
                if options.json {
                    try CommandOutput.json(["alert_id": PeoplePrinter.id(alert.id), "responded_at": ContentValue.iso8601(at)])
                } else {
                    print("\(contact.name) has been told you are responding.")
                }
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
