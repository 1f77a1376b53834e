import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal locations list|add|edit|delete`, under seed `004_…`'s contract.
struct LocationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locations", abstract: "List, add, edit or delete locations.",
        subcommands: [List.self, Add.self, Edit.self, Delete.self])

    struct Fields: ParsableArguments {
        @OptionGroup var common: CommonFields
        @Option var region: String?
        @Option(help: "A short description.") var description: String?
        @Option(help: "Website (https:// is added to a bare host).") var website: String?

        func apply(to draft: inout Location.Draft) {
            common.apply(to: &draft)
            applied(region, to: &draft.region)
            applied(description, to: &draft.shortDescription)
            applied(website, to: &draft.websiteURL)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List locations (not deleted), by sort order then name.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var list: ListOptions

        func run() async throws {
            try await CommandOutput.run {
                try ContentPrinter.print(try await options.adapters().contentClient.locations(list.filter), json: options.json)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a location (signed in).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var fields: Fields

        func run() async throws {
            try await CommandOutput.run {
                var draft = Location.Draft(name: try fields.common.requiredName())
                fields.apply(to: &draft)
                try ContentPrinter.print(try await options.adapters().contentClient.saveLocation(draft), verb: "Added", json: options.json)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the given fields of one of your locations.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The location's id.") var id: UUID
        @OptionGroup var fields: Fields

        func run() async throws {
            try await CommandOutput.run {
                let content = try options.adapters().contentClient
                guard var draft = try await content.locations(ContentFilter()).first(where: { $0.id == id })?.draft else {
                    throw DomainError.notFound("Location \(id)")
                }
                fields.apply(to: &draft)
                try ContentPrinter.print(try await content.saveLocation(draft), verb: "Saved", json: options.json)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one of your locations (kept, marked deleted).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The location's id.") var id: UUID

        func run() async throws {
            try await CommandOutput.run {
                try await options.adapters().contentClient.deleteLocation(id)
                if !options.json { print("Deleted location \(id.uuidString.lowercased()).") }
            }
        }
    }
}
