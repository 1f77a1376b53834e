import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

extension ContactsCommand {
    /// `lifesignal contacts requests …`: requests to become someone's responder. Being a
    /// responder opens the other's check-ins and alerts, so it waits for their answer: they
    /// accept or decline what they received; the requester may withdraw what they sent.
    struct Requests: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "requests", abstract: "Requests to become someone's responder: list, accept, decline or withdraw.",
            subcommands: [List.self, Accept.self, Decline.self, Cancel.self], defaultSubcommand: List.self)

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Role requests waiting for your answer, and yours waiting for theirs.")
            @OptionGroup var options: ClientOptions

            func run() async throws {
                try await CommandOutput.run { try await show() }
            }

            @MainActor
            func show() async throws {
                let state = try await ContactsCommand.screen(options).state
                if options.json {
                    try CommandOutput.json([
                        "received": state.receivedRoleRequests.map(Self.receivedJSON),
                        "sent": state.sentRoleRequests.map(Self.sentJSON),
                    ])
                    return
                }
                if state.receivedRoleRequests.isEmpty, state.sentRoleRequests.isEmpty { print("No role requests.") }
                Self.printLines(state)
            }

            /// One line per request, each with the id its answer takes.
            static func printLines(_ state: ContactsFeature.State) {
                for request in state.receivedRoleRequests {
                    print("\(request.requesterName) asks to become your responder · \(PeoplePrinter.id(request.id))")
                }
                for request in state.sentRoleRequests {
                    print("You asked \(request.ownerName) to accept you as their responder (waiting) · \(PeoplePrinter.id(request.id))")
                }
            }

            static func receivedJSON(_ request: RoleRequest) -> [String: String] {
                [
                    "id": PeoplePrinter.id(request.id), "from": request.requesterName, "from_id": PeoplePrinter.id(request.requesterID.rawValue),
                    "created_at": ContentValue.iso8601(request.createdAt),
                ]
            }

            static func sentJSON(_ request: RoleRequest) -> [String: String] {
                [
                    "id": PeoplePrinter.id(request.id), "to": request.ownerName, "to_id": PeoplePrinter.id(request.ownerID.rawValue),
                    "created_at": ContentValue.iso8601(request.createdAt),
                ]
            }
        }

        /// The request with `id` on the screen's list `side`, or not found in the words the
        /// server uses for one the caller may not answer.
        @MainActor
        static func find(_ id: UUID, in side: KeyPath<ContactsFeature.State, [RoleRequest]>, on screen: Screen) throws -> RoleRequest {
            guard let request = screen.state[keyPath: side].first(where: { $0.id == id }) else { throw DomainError.notFound("Role request") }
            return request
        }

        struct Accept: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Let a contact become your responder.")
            @OptionGroup var options: ClientOptions
            @Argument(help: "The request's id.") var request: UUID

            func run() async throws {
                try await CommandOutput.run { try await accept() }
            }

            @MainActor
            func accept() async throws {
                let screen = try await ContactsCommand.screen(options)
                let asked = try Requests.find(request, in: \.receivedRoleRequests, on: screen)
                try await screen.send(.acceptRoleRequestTapped(request))
                let contact = screen.state.contacts.first { $0.id == asked.requesterID }
                if options.json {
                    try CommandOutput.json(contact.map(PeoplePrinter.contactJSON) ?? ["accepted": PeoplePrinter.id(request)])
                } else {
                    print("\(asked.requesterName) is now your \(contact?.roles.names.joined(separator: " & ") ?? "responder").")
                }
            }
        }

        struct Decline: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Turn down a contact's request to become your responder.")
            @OptionGroup var options: ClientOptions
            @Argument(help: "The request's id.") var request: UUID

            func run() async throws {
                try await CommandOutput.run { try await decline() }
            }

            @MainActor
            func decline() async throws {
                let screen = try await ContactsCommand.screen(options)
                let asked = try Requests.find(request, in: \.receivedRoleRequests, on: screen)
                try await screen.send(.declineRoleRequestTapped(request))
                if options.json {
                    try CommandOutput.json(["declined": PeoplePrinter.id(request)])
                } else {
                    print("Declined; \(asked.requesterName) is told.")
                }
            }
        }

        struct Cancel: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Withdraw your request to become a contact's responder.")
            @OptionGroup var options: ClientOptions
            @Argument(help: "The request's id.") var request: UUID

            func run() async throws {
                try await CommandOutput.run { try await cancel() }
            }

            @MainActor
            func cancel() async throws {
                let screen = try await ContactsCommand.screen(options)
                let asked = try Requests.find(request, in: \.sentRoleRequests, on: screen)
                try await screen.send(.cancelRoleRequestTapped(request))
                if options.json {
                    try CommandOutput.json(["cancelled": PeoplePrinter.id(request)])
                } else {
                    print("Withdrew your request to \(asked.ownerName).")
                }
            }
        }
    }
}
