import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal events list|add|edit|delete`, with the contract's day window on `list`.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events", abstract: "List, add, edit or delete events.",
        subcommands: [List.self, Add.self, Edit.self, Delete.self])

    struct Fields: ParsableArguments {
        @OptionGroup var common: CommonFields
        @Option var description: String?
        @Option(name: .customLong("host-org"), help: "Who hosts it.") var hostOrg: String?
        @Option(name: .customLong("start-date"), help: "YYYY-MM-DD.") var startDate: CalendarDay?
        @Option(name: .customLong("end-date"), help: "YYYY-MM-DD, on or after the start.") var endDate: CalendarDay?
        @Option(name: .customLong("start-time"), help: "HH:MM.") var startTime: String?
        @Option(name: .customLong("end-time"), help: "HH:MM.") var endTime: String?
        @Option var location: String?
        @Option var recurrence: String?
        @Option var website: String?
        @Option(help: "Image URL.") var image: String?
        @Option(help: "Comma-separated keywords (replaces the list).") var keywords: String?

        func apply(to draft: inout Event.Draft) {
            common.apply(to: &draft)
            applied(description, to: &draft.description)
            applied(hostOrg, to: &draft.hostOrg)
            if let startDate { draft.startDate = startDate }
            if let endDate { draft.endDate = endDate }
            applied(startTime, to: &draft.startTime)
            applied(endTime, to: &draft.endTime)
            applied(location, to: &draft.location)
            applied(recurrence, to: &draft.recurrence)
            applied(website, to: &draft.websiteURL)
            applied(image, to: &draft.imageURL)
            if let keywords { draft.keywords = keywords.split(separator: ",").map(String.init) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List events (not deleted), by sort order then start day.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var list: ListOptions
        @Option(help: "Only events starting or ending on or after this day (YYYY-MM-DD), or undated.") var from: CalendarDay?
        @Option(help: "Only events starting on or before this day (YYYY-MM-DD).") var to: CalendarDay?

        func run() async throws {
            try await CommandOutput.run {
                let filter = EventFilter(search: list.search, status: list.status, from: from, to: to)
                try ContentPrinter.print(try await ContentScreen.list(options, .events, filter).events, json: options.json)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add an event (signed in).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var fields: Fields

        func run() async throws {
            try await CommandOutput.run {
                var draft = Event.Draft(name: try fields.common.requiredName())
                fields.apply(to: &draft)
                try ContentPrinter.print(try await ContentScreen.add(options, .event(draft)).content, verb: "Added", json: options.json)
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change the given fields of one of your events.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The event's id.") var id: UUID
        @OptionGroup var fields: Fields

        func run() async throws {
            try await CommandOutput.run {
                let saved = try await ContentScreen.edit(options, .events, id) { editor in
                    guard case .event(var draft) = editor else { return }
                    fields.apply(to: &draft)
                    editor = .event(draft)
                }
                try ContentPrinter.print(saved.content, verb: "Saved", json: options.json)
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete one of your events (kept, marked deleted).")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The event's id.") var id: UUID

        func run() async throws {
            try await CommandOutput.run {
                try await ContentScreen.delete(options, .events, id)
                if !options.json { print("Deleted event \(id.uuidString.lowercased()).") }
            }
        }
    }
}
