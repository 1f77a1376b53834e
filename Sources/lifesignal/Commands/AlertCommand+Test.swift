import ArgumentParser
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFeatures

/// `lifesignal alert test [--status]`: "This is a test" to every responder, through the test
/// alert screen's reducer, and who can be reached, and how.
extension AlertCommand {
    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a test alert to your responders, or (--status) show what the last one found.")
        @OptionGroup var options: ClientOptions
        @Flag(help: "Show the last test instead of sending one.") var status = false

        func run() async throws {
            try await CommandOutput.run { try await test() }
        }

        @MainActor
        func test() async throws {
            let screen = ScreenDriver(TestAlertFeature.State(), clients: try options.clients(), errorMessage: \.errorMessage) { TestAlertFeature() }
            try await screen.send(status ? .task : .sendTapped)
            guard let report = screen.state.report else {
                print("No test alert sent yet: `lifesignal alert test` sends one.")
                return
            }
            if options.json {
                try CommandOutput.json(
                    report.responders.map {
                        [
                            "name": $0.name, "confirmed": $0.confirmedAt != nil ? "yes" : "no", "unreachable": $0.isUnreachable ? "yes" : "no",
                            "channels": $0.attempts.map { "\($0.channel.rawValue):\($0.status)" }.joined(separator: ","),
                        ]
                    })
                return
            }
            print("Test alert sent \(ContentValue.iso8601(report.sentAt)).")
            for responder in report.responders {
                let confirmed = responder.confirmedAt.map { "confirmed (\(responder.confirmedBy ?? "")) \(ContentValue.iso8601($0))" } ?? "not confirmed yet"
                let channels = responder.attempts.map { "\($0.channel.rawValue) \($0.status)" }.joined(separator: ", ")
                print("  \(responder.name): \(confirmed); \(channels.isEmpty ? "no channel outside the app" : channels)")
                if responder.isUnreachable { print("    warning: nothing outside the app reached \(responder.name)") }
            }
        }
    }
}
