import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain

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
        try await CommandOutput.run {
            let stream = try await options.adapters().notificationClient.stream()
            if !options.json {
                print("Watching. Press Ctrl-C to stop.")
            }
            // Scripts read the line above (or nothing, with --json) as "subscribed".
            fflush(nil)
            var seen = 0
            for try await record in stream {
                if options.json {
                    try CommandOutput.json(PeoplePrinter.notificationJSON(record), compact: true)
                } else {
                    print("\(ContentValue.iso8601(record.createdAt))  \(record.title): \(record.body)")
                }
                fflush(nil)
                seen += 1
                if let count, seen >= count { return }
            }
        }
    }
}
