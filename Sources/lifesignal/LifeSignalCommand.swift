import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

@main
struct LifeSignalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifesignal",
        abstract: "LifeSignal: personal-safety check-ins, with responders told at once when a deadline passes.",
        subcommands: [
            DemoCommand.self, ServeCommand.self, LoginCommand.self, LogoutCommand.self, StatusCommand.self, CheckInCommand.self,
            ProfileCommand.self, AlertCommand.self, ContactsCommand.self, PingCommand.self, NotificationsCommand.self, WatchCommand.self,
            LocationsCommand.self, EventsCommand.self, RoutesCommand.self, DeliveriesCommand.self,
        ],
        defaultSubcommand: nil)

    /// ArgumentParser's entry point, after one thing only `serve` wants: on PostgreSQL, Swift
    /// Concurrency's jobs run on NIO's event loops (the threads Hummingbird and postgres-nio
    /// already use, ``EventLoopConcurrencyExecutor``) instead of a pool of their own, so a request no longer hops between two
    /// sets of threads at every `await` on I/O (half the context switches of a read). On
    /// SQLite, whose statements run on a thread pool of their own, it cost a fifth of the
    /// check-ins (799 against 631 a second, docs/performance.md), so there the pool stays.
    static func main() async {
        if CommandLine.arguments.dropFirst().first == ServeCommand.configuration.commandName, runsOnEventLoops {
            // Must come from the main thread before other work is queued; the async `main`
            // starts on the main thread.
            EventLoopConcurrencyExecutor.install()
        }
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// `LIFESIGNAL_EVENT_LOOP_EXECUTOR=1` or `0` decides; otherwise a PostgreSQL URL in
    /// `--database` or `LIFESIGNAL_DATABASE_URL` does (a database named only in the config
    /// file keeps the pool). Read before the arguments are parsed, hence by hand.
    static var runsOnEventLoops: Bool {
        let environment = ProcessInfo.processInfo.environment
        if let choice = environment["LIFESIGNAL_EVENT_LOOP_EXECUTOR"] { return choice == "1" }
        let arguments = CommandLine.arguments
        var database = environment["LIFESIGNAL_DATABASE_URL"]
        for (index, argument) in arguments.enumerated() {
            if argument == "--database", index + 1 < arguments.count { database = arguments[index + 1] }
            if argument.hasPrefix("--database=") { database = String(argument.dropFirst("--database=".count)) }
        }
        return database.map { $0.hasPrefix("postgres://") || $0.hasPrefix("postgresql://") } ?? false
    }
}
