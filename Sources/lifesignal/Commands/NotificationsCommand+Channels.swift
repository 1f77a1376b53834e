import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

extension NotificationsCommand {
    /// `lifesignal notifications channels [--push …] [--sms …] [--email …] [--voice …]`: what reaches you
    /// outside the app, through the notification channels screen's reducer.
    struct Channels: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or choose what reaches you by push, SMS, email and phone call: all, urgent (alerts and all-clears) or off.",
            discussion: "A call (--voice) carries only alerts and, for yourself, a missed check-in (\"press 1 if you're OK\"); it is off until you choose it.")
        @OptionGroup var options: ClientOptions
        @Option(help: "all, urgent or off.") var push: String?
        @Option(help: "all, urgent or off.") var sms: String?
        @Option(help: "all, urgent or off.") var email: String?
        @Option(help: "urgent (or all) to be called about alerts, off not to be.") var voice: String?

        func run() async throws {
            try await CommandOutput.run { try await choose() }
        }

        @MainActor
        func choose() async throws {
            var choices: [(DeliveryChannel, ChannelChoice)] = []
            for (channel, text) in [(DeliveryChannel.push, push), (.sms, sms), (.email, email), (.voice, voice)] {
                guard let text else { continue }
                guard let choice = ChannelChoice(rawValue: text.lowercased()) else {
                    throw DomainError.invalidArgument("--\(channel.rawValue) is all, urgent or off, not \"\(text.prefix(40))\"")
                }
                choices.append((channel, choice))
            }
            let screen = ScreenDriver(NotificationChannelsFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) {
                NotificationChannelsFeature()
            }
            try await screen.send(.task)
            for (channel, choice) in choices { try await screen.send(.choicePicked(channel, choice)) }
            guard let preferences = screen.state.preferences else { throw DomainError.internal("The channel choices were not loaded") }
            if options.json {
                try CommandOutput.json(Dictionary(uniqueKeysWithValues: DeliveryChannel.allCases.map { ($0.rawValue, preferences[$0].rawValue) }))
            } else {
                for channel in DeliveryChannel.allCases { print("\(channel.rawValue): \(preferences[channel].rawValue)") }
                if screen.state.isUnreachableOutsideTheApp { print("Every channel is off: you hear of alerts only in the app.") }
            }
        }
    }
}
