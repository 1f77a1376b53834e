import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// `lifesignal notifications list|read|clear`: the notification centre.
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications", abstract: "List, mark read or clear your notifications.",
        subcommands: [List.self, Read.self, Clear.self], defaultSubcommand: List.self)

    /// `--type alerts --type pings`: categories as the notification centre groups them.
    struct TypeOption: ParsableArguments {
        @Option(name: .customLong("type"), help: "A category: alerts, pings, roles, removed, added, check_ins or system (repeatable).")
        var categories: [String] = []

        func types() throws(DomainError) -> [NotificationType]? {
            guard !categories.isEmpty else { return nil }
            var types: [NotificationType] = []
            for name in categories {
                guard let category = NotificationCategory(rawValue: name.lowercased()) else {
                    throw .invalidArgument("Unknown category \"\(name)\"; use \(NotificationCategory.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                types += NotificationType.allCases.filter { $0.category == category }
            }
            return types
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your notifications, newest first (• unread).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var filter: TypeOption
        @Flag(help: "Only unread ones.") var unread = false

        func run() async throws {
            try await CommandOutput.run {
                let types = try filter.types()
                let records = try await options.adapters().notificationClient.notifications()
                    .filter { (types?.contains($0.type) ?? true) && (!unread || !$0.isRead) }
                if options.json {
                    try CommandOutput.json(records.map(PeoplePrinter.notificationJSON))
                } else if records.isEmpty {
                    print("No notifications.")
                } else {
                    records.forEach { print(PeoplePrinter.line($0)) }
                }
            }
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark notifications read: the ids given, or all.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "Notification ids.") var ids: [UUID] = []
        @Flag(help: "Every notification.") var all = false

        func validate() throws {
            guard all != !ids.isEmpty else { throw ValidationError("Give notification ids, or pass --all") }
        }

        func run() async throws {
            try await CommandOutput.run {
                let count = try await options.adapters().notificationClient.markRead(all ? nil : ids)
                if options.json { try CommandOutput.json(["marked_read": count]) } else { print("Marked \(count) read.") }
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete notifications: of the given categories, or all.")
        @OptionGroup var options: ClientOptions
        @OptionGroup var filter: TypeOption
        @Flag(help: "Every notification.") var all = false

        func validate() throws {
            guard all != !filter.categories.isEmpty else { throw ValidationError("Give --type categories, or pass --all") }
        }

        func run() async throws {
            try await CommandOutput.run {
                let count = try await options.adapters().notificationClient.clear(try filter.types())
                if options.json { try CommandOutput.json(["cleared": count]) } else { print("Cleared \(count).") }
            }
        }
    }
}
