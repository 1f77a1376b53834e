import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal watch`: what happens to me and my dependents, live, one line each (or one JSON
/// object per line), until interrupted or `--count` events have arrived.
///
/// It follows my notifications, which is where the backend reports everything that concerns
/// me: my dependents' SOS and missed deadlines, pings, contact changes, my own reminders.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch", abstract: "Follow what happens to you and your dependents, live.")

    @OptionGroup var options: ClientOptions
    @Option(help: "Stop after this many events (default: run until interrupted).") var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        try await CommandOutput.run { try await follow() }
    }

    /// Through the notification centre's reducer: its live stream, printing what arrives
    /// after the list it opened with.
    @MainActor
    func follow() async throws {
        let screen = ScreenDriver(NotificationCentreFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) {
            NotificationCentreFeature()
        }
        var known: Set<UUID>?
        var printed = 0
        let json = options.json
        screen.onResponse = { action in
            guard case .notificationArrived(let record) = action, let seen = known, !seen.contains(record.id) else { return }
            known?.insert(record.id)
            if json {
                try? CommandOutput.json(PeoplePrinter.notificationJSON(record), compact: true)
            } else {
                print("\(ContentValue.iso8601(record.createdAt))  \(record.title): \(record.body)")
            }
            fflush(nil)
            printed += 1
        }
        try await screen.start(.task) { !$0.isLoading }
        known = Set(screen.state.notifications.map(\.id))
        // Scripts read the line below (or nothing, with --json) as "subscribed".
        if !json { print("Watching. Press Ctrl-C to stop.") }
        fflush(nil)
        let limit = count
        defer { screen.store.send(.onDisappear) }
        try await screen.wait(until: { _ in limit.map { printed >= $0 } ?? false }, seconds: nil)
    }
}
