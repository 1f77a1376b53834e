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

    /// ArgumentParser's entry point, after one thing only `serve` wants: Swift Concurrency's
    /// jobs run on NIO's event loops (the threads Hummingbird and postgres-nio already use)
    /// instead of a pool of their own, so a request no longer hops between two sets of
    /// threads at every `await` on I/O. Measured in docs/performance.md ("Where the time goes").
    /// Nothing the server runs blocks in a task: password hashes have their own queue and
    /// SQLite its own thread pool.
    static func main() async {
        // LIFESIGNAL_EVENT_LOOP_EXECUTOR=0 keeps Swift's own pool: for comparing the two, and
        // a way back should some dependency ever block in a task.
        if CommandLine.arguments.dropFirst().first == ServeCommand.configuration.commandName,
            ProcessInfo.processInfo.environment["LIFESIGNAL_EVENT_LOOP_EXECUTOR"] != "0"
        {
            // Must come from the main thread before other work is queued; the async `main`
            // starts on the main thread.
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
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
}
