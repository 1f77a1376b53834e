import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal routes list|add|edit|delete`.
struct RoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes", abstract: "List, add, edit or delete routes.",
        subcommands: [List.self, Add.self, Edit.self, Delete.self])

    struct Fields: ParsableArguments {
        @OptionGroup var common: CommonFields
        @Option(name: .customLong("gpx-url"), help: "The GPX track's URL.") var gpxURL: String?
        @Option(help: "Minutes.") var duration: Int?
        @Option(name: .customLong("start-point")) var startPoint: String?
        @Option(name: .customLong("end-point")) var endPoint: String?
        @Option(help: "easy, moderate or challenging.") var difficulty: RouteDifficulty?
        @Option var notes: String?

        func apply(to draft: inout Route.Draft) {
            common.apply(to: &draft)
            applied(gpxURL, to: &draft.gpxURL)
            if let duration { draft.durationMinutes = duration }
            applied(startPoint, to: &draft.startPoint)
            applied(endPoint, to: &draft.endPoint)
            if let difficulty { draft.difficulty = difficulty }
            applied(notes, to: &draft.notes)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List routes (not deleted), by sort order then name.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var list: ListOptions

        func run() async throws {
            try await CommandOutput.run {
                try ContentPrinter.print(
                    try await ContentScreen.list(options, .routes, EventFilter(search: list.search, status: list.status)).routes, json: options.json)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a route (signed in).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var fields: Fields

        func run() async throws {
            try await CommandOutput.run {
                var draft = Route.Draft(name: try fields.common.requiredName())
                fields.apply(to: &draft)
                try ContentPrinter.print(try await ContentScreen.add(options, .route(draft)).content, verb: "Added", json: options.json)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the given fields of one of your routes.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The route's id.") var id: UUID
        @OptionGroup var fields: Fields

        func run() async throws {
            try await CommandOutput.run {
                let saved = try await ContentScreen.edit(options, .routes, id) { editor in
                    guard case .route(var draft) = editor else { return }
                    fields.apply(to: &draft)
                    editor = .route(draft)
                }
                try ContentPrinter.print(saved.content, verb: "Saved", json: options.json)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one of your routes (kept, marked deleted).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The route's id.") var id: UUID

        func run() async throws {
            try await CommandOutput.run {
                try await ContentScreen.delete(options, .routes, id)
                if !options.json { print("Deleted route \(id.uuidString.lowercased()).") }
            }
        }
    }
}
