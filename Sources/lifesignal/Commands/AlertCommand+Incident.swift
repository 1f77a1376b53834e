import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

extension AlertCommand {
    /// `--lat`, `--lon`, `--accuracy`: where the person is, sent with an SOS only when given.
    struct LocationOptions: ParsableArguments {
        @Option(name: .customLong("lat"), help: "Your latitude in degrees (-90 to 90), to share with this SOS.") var latitude: Double?
        @Option(name: .customLong("lon"), help: "Your longitude in degrees (-180 to 180), to share with this SOS; a negative one as --lon=-0.12.")
        var longitude: Double?
        @Option(help: "How sure the position is, in metres (0 to 100000).") var accuracy: Double?

        /// The place given, checked as the server checks it, or `nil` when none was given.
        func location(now: Date) throws(DomainError) -> AlertLocation? {
            switch (latitude, longitude) {
            case (nil, nil):
                guard accuracy == nil else { throw .invalidArgument("--accuracy goes with --lat and --lon") }
                return nil
            case (let latitude?, let longitude?):
                let location = AlertLocation(latitude: latitude, longitude: longitude, accuracyMeters: accuracy, time: now)
                try location.validate()
                return location
            default:
                throw .invalidArgument("Give both --lat and --lon to share where you are")
            }
        }
    }

    struct Safe: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Confirm a dependent is safe: their SOS or missed check-in ends and everyone told hears the all-clear.")
        @OptionGroup var options: ClientOptions
        @Argument(help: "The dependent: their id or name.") var dependent: String

        func run() async throws {
            try await CommandOutput.run { try await markSafe() }
        }

        @MainActor
        func markSafe() async throws {
            let screen = ScreenDriver(DependentsFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { DependentsFeature() }
            try await screen.send(.task)
            let contact = try ContactReference.resolve(dependent, in: screen.state.contacts.filter(\.roles.isDependent))
            guard let alertID = contact.activeAlertID else { throw DomainError.notFound("An active alert from \(contact.name)") }
            try await screen.send(.markSafeTapped(alertID))
            if options.json {
                try CommandOutput.json(["alert_id": PeoplePrinter.id(alertID), "resolution": AlertResolution.markedSafe.rawValue])
            } else {
                print("\(contact.name) is marked safe; everyone who was told hears the all-clear.")
            }
        }
    }
}
