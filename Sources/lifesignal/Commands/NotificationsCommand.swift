import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal notifications list|read|clear`: the notification centre's reducer.
struct NotificationsCommand: AsyncParsableCommand {
    typealias Screen = ScreenDriver<NotificationCentreFeature.State, NotificationCentreFeature.Action>

    /// Runs `body` on the notification centre with its list loaded; the screen's live stream
    /// is ended afterwards, as when the screen closes.
    @MainActor
    static func withScreen(_ options: ClientOptions, _ body: (Screen) async throws -> Void) async throws {
        let screen = Screen(NotificationCentreFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) {
            NotificationCentreFeature()
        }
        try await screen.start(.task) { !$0.isLoading }
        do {
            try await body(screen)
            try await screen.send(.onDisappear)
        } catch {
            screen.store.send(.onDisappear)
            throw error
        }
    }

    static let configuration = CommandConfiguration(
        commandName: "notifications", abstract: "List, mark read or clear your notifications.",
        subcommands: [List.self, Read.self, Clear.self, Channels.self], defaultSubcommand: List.self)

    /// `--type alerts --type pings`: categories as the notification centre groups them.
    struct TypeOption: ParsableArguments {
        @Option(name: .customLong("type"), help: "A category: alerts, pings, roles, removed, added, check_ins or system (repeatable).")
        var categories: [String] = []

        /// The categories named, or `nil` for all.
        func selected() throws(DomainError) -> [NotificationCategory]? {
            guard !categories.isEmpty else { return nil }
            var selected: [NotificationCategory] = []
            for name in categories {
                guard let category = NotificationCategory(rawValue: name.lowercased()) else {
                    throw .invalidArgument("Unknown category \"\(name)\"; use \(NotificationCategory.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                selected.append(category)
            }
            return selected
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Your notifications, newest first (• unread).")
        @OptionGroup var options: ClientOptions
        @OptionGroup var filter: TypeOption
        @Flag(help: "Only unread ones.") var unread = false

        func run() async throws {
            try await CommandOutput.run { try await show() }
        }

        @MainActor
        func show() async throws {
            let categories = try filter.selected()
            try await NotificationsCommand.withScreen(options) { screen in
                let records = screen.state.notifications
                    .filter { (categories?.contains($0.type.category) ?? true) && (!unread || !$0.isRead) }
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
            try await CommandOutput.run { try await markRead() }
        }

        @MainActor
        func markRead() async throws {
            try await NotificationsCommand.withScreen(options) { screen in
                let unread = screen.state.badge
                if all {
                    try await screen.send(.markAllReadTapped)
                } else {
                    for id in ids {
                        guard screen.state.notifications.contains(where: { $0.id == id }) else {
                            throw DomainError.notFound("Notification \(PeoplePrinter.id(id))")
                        }
                        try await screen.send(.markReadTapped(id))
                    }
                }
                let count = unread - screen.state.badge
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
            try await CommandOutput.run { try await clear() }
        }

        /// One category at a time, as the screen's filter shows them; "Clear these?" is
        /// confirmed by running the command.
        @MainActor
        func clear() async throws {
            let categories: [NotificationCategory?] = try filter.selected() ?? [nil]
            try await NotificationsCommand.withScreen(options) { screen in
                let before = screen.state.notifications.count
                for category in categories {
                    try await screen.send(.filterChanged(category))
                    try await screen.send(.clearTapped)
                    if screen.state.isConfirmingClear { try await screen.send(.clearConfirmed) }
                }
                let count = before - screen.state.notifications.count
                if options.json { try CommandOutput.json(["cleared": count]) } else { print("Cleared \(count).") }
            }
        }
    }
}
