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
                try ContentPrinter.print(
                    try await ContentScreen.list(options, .locations, EventFilter(search: list.search, status: list.status)).locations, json: options.json)
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
                try ContentPrinter.print(try await ContentScreen.add(options, .location(draft)).content, verb: "Added", json: options.json)
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
                let saved = try await ContentScreen.edit(options, .locations, id) { editor in
                    guard case .location(var draft) = editor else { return }
                    fields.apply(to: &draft)
                    editor = .location(draft)
                }
                try ContentPrinter.print(saved.content, verb: "Saved", json: options.json)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one of your locations (kept, marked deleted).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The location's id.") var id: UUID

        func run() async throws {
            try await CommandOutput.run {
                try await ContentScreen.delete(options, .locations, id)
                if !options.json { print("Deleted location \(id.uuidString.lowercased()).") }
            }
        }
    }
}
