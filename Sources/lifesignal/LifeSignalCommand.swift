import ArgumentParser

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
}
