import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal check-in settings|pause|resume`: escalation after a missed deadline, through
/// the escalation settings screen's reducer.
extension CheckInCommand {
    typealias EscalationScreen = ScreenDriver<EscalationSettingsFeature.State, EscalationSettingsFeature.Action>

    /// The escalation screen with the stored state loaded.
    @MainActor
    static func escalationScreen(_ options: ClientOptions) async throws -> EscalationScreen {
        let screen = EscalationScreen(EscalationSettingsFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) {
            EscalationSettingsFeature()
        }
        try await screen.send(.task)
        return screen
    }

    /// Prints the state as stored: the settings, the pause and the responders by tier.
    static func show(_ escalation: CheckInEscalation?, json: Bool) throws {
        guard let escalation else { throw DomainError.internal("The escalation settings were not loaded") }
        if json {
            try CommandOutput.json(EscalationJSON(escalation))
            return
        }
        let settings = escalation.settings
        print(
            "Grace: \(settings.graceSeconds == 0 ? "none" : DurationArgument.text(settings.graceSeconds)) · "
                + "next tier after: \(DurationArgument.text(settings.tierDelaySeconds)) · "
                + "repeat: \(settings.repeatSeconds.map(DurationArgument.text) ?? "off")")
        if let until = escalation.pausedUntil, escalation.isPaused(at: Date()) {
            print("Check-ins paused until \(ContentValue.iso8601(until)).")
        }
        for responder in escalation.responders {
            print("  tier \(responder.tier): \(responder.name) · \(PeoplePrinter.id(responder.id.rawValue))")
        }
        if escalation.responders.isEmpty { print("  No responders yet.") }
    }

    struct Settings: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or change what happens after a missed deadline: grace, delay between tiers, repeats.")
        @OptionGroup var options: ClientOptions
        @Option(help: "Wait this long after the deadline before telling responders (0 to 24h, e.g. 15m).") var grace: String?
        @Option(name: .customLong("tier-delay"), help: "Tell the next tier after this long while nobody is on it (5m to 24h, e.g. 2h).")
        var tierDelay: String?
        @Option(name: .customLong("repeat"), help: "Remind you and the current tier this often until someone is on it (15m to 24h, or off).")
        var repeats: String?

        func run() async throws {
            try await CommandOutput.run { try await change() }
        }

        @MainActor
        func change() async throws {
            let grace = try self.grace.map { (text) throws(DomainError) in try DurationArgument.seconds(text, option: "--grace") }
            let delay = try tierDelay.map { (text) throws(DomainError) in try DurationArgument.seconds(text, option: "--tier-delay") }
            let repeats = try self.repeats.map { (text) throws(DomainError) -> Int? in
                ["off", "none", "0"].contains(text.lowercased()) ? nil : try DurationArgument.seconds(text, option: "--repeat")
            }
            let screen = try await CheckInCommand.escalationScreen(options)
            if let grace { try await screen.send(.gracePicked(grace)) }
            if let delay { try await screen.send(.tierDelayPicked(delay)) }
            if let repeats { try await screen.send(.repeatPicked(repeats)) }
            try CheckInCommand.show(screen.state.escalation, json: options.json)
        }
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pause reminders and escalation until a time (at most 30 days ahead); your responders are told.")
        @OptionGroup var options: ClientOptions
        @Option(help: "Until when: ISO 8601 (2026-12-01T09:00:00Z) or a duration from now (8h, 3d).") var until: String

        func run() async throws {
            try await CommandOutput.run { try await pause() }
        }

        @MainActor
        func pause() async throws {
            let until = try DurationArgument.time(self.until, option: "--until", now: Date())
            let screen = try await CheckInCommand.escalationScreen(options)
            try await screen.send(.pauseTapped(until: until))
            try CheckInCommand.show(screen.state.escalation, json: options.json)
        }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End a pause now: a fresh interval starts and your responders are told.")
        @OptionGroup var options: ClientOptions

        func run() async throws {
            try await CommandOutput.run { try await resume() }
        }

        @MainActor
        func resume() async throws {
            let screen = try await CheckInCommand.escalationScreen(options)
            guard screen.state.escalation?.pausedUntil != nil else { throw DomainError.failedPrecondition("Check-ins are not paused") }
            try await screen.send(.resumeTapped)
            try CheckInCommand.show(screen.state.escalation, json: options.json)
        }
    }

    struct EscalationJSON: Encodable {
        struct Responder: Encodable {
            var id: String
            var name: String
            var tier: Int
        }

        var graceSeconds: Int
        var tierDelaySeconds: Int
        var repeatSeconds: Int?
        var pausedUntil: Date?
        var deadline: Date?
        var responders: [Responder]

        init(_ escalation: CheckInEscalation) {
            graceSeconds = escalation.settings.graceSeconds
            tierDelaySeconds = escalation.settings.tierDelaySeconds
            repeatSeconds = escalation.settings.repeatSeconds
            pausedUntil = escalation.pausedUntil
            deadline = escalation.deadline
            responders = escalation.responders.map { Responder(id: PeoplePrinter.id($0.id.rawValue), name: $0.name, tier: $0.tier) }
        }

        enum CodingKeys: String, CodingKey {
            case responders, deadline
            case graceSeconds = "grace_seconds"
            case tierDelaySeconds = "tier_delay_seconds"
            case repeatSeconds = "repeat_seconds"
            case pausedUntil = "paused_until"
        }
    }
}
