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
        @Option(help: "Try channels one after another for alerts, e.g. push,sms,voice,email; all-at-once to use every channel at once.")
        var order: String?

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
            if let order = try order.map(Self.parseOrder) { try await screen.send(.fallbackOrderPicked(order)) }
            guard let preferences = screen.state.preferences else { throw DomainError.internal("The channel choices were not loaded") }
            if options.json {
                try CommandOutput.json(Dictionary(uniqueKeysWithValues: DeliveryChannel.allCases.map { ($0.rawValue, preferences[$0].rawValue) }))
            } else {
                for channel in DeliveryChannel.allCases { print("\(channel.rawValue): \(preferences[channel].rawValue)") }
                if !preferences.fallback.isEmpty { print("alerts try: " + preferences.fallback.map(\.rawValue).joined(separator: " → ")) }
                if screen.state.isUnreachableOutsideTheApp { print("Every channel is off: you hear of alerts only in the app.") }
            }
        }

        /// `push,sms,voice` as channels; `all-at-once` as none.
        static func parseOrder(_ text: String) throws -> [DeliveryChannel] {
            if text.lowercased() == "all-at-once" { return [] }
            return try text.split(separator: ",").map { name in
                guard let channel = DeliveryChannel(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased()) else {
                    throw DomainError.invalidArgument("--order names push, sms, email or voice, not \"\(name.prefix(40))\"")
                }
                return channel
            }
        }
    }
}
