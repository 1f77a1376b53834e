import ArgumentParser
import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalLocalAdapters
import RFC3339

/// `lifesignal deliveries`: the delivery ledger as an operator sees it, read straight from the
/// server's database (the operator holds it; the same rows are `list-deliveries` for the
/// service role over HTTP). Addresses are shown with their middle hidden.
struct DeliveriesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deliveries",
        abstract: "Show the delivery ledger: every push, SMS and email, and where each stands.")

    @Option(help: "A postgres:// URL or an SQLite file path (default: the one `serve` uses).") var database: String?
    @Option(help: "Only rows with this status: queued, sending, sent, delivered or failed.") var status: DeliveryStatus?
    @Option(help: "Only rows of this channel: push, sms or email.") var channel: DeliveryChannel?
    @Option(help: "How many rows, newest first (1…1000).") var limit = 50
    @Flag(help: "Print JSON instead of a table.") var json = false

    func run() async throws {
        let local = try LifeSignalEnvironment.local(database: database)
        var configuration = try local.backendConfiguration(issuer: "lifesignal-deliveries")
        // Reading only: this process sends nothing (the running server does).
        configuration.deliveryChannels = DeliveryChannels()
        let backend = try await LifeSignalBackend.open(databaseURL: local.databaseURL, configuration: configuration, engines: DatabaseEngine.all)
        let read = await Result {
            try await (
                backend.deliveries.list(caller: .service, status: status, channel: channel, limit: limit),
                backend.deliveries.summary()
            )
        }
        try await backend.close()
        let (rows, summary) = try read.get()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        print(Self.summaryLine(summary))
        for row in rows { print(Self.line(row)) }
        if rows.isEmpty { print("(no deliveries match)") }
    }

    static func summaryLine(_ summary: DeliverySummary) -> String {
        let parts = DeliveryChannel.allCases.compactMap { channel -> String? in
            guard let counts = summary.counts[channel], !counts.isEmpty else { return nil }
            let statuses = DeliveryStatus.allCases.compactMap { status in counts[status].map { "\($0) \(status.rawValue)" } }
            return "\(channel.rawValue): " + statuses.joined(separator: ", ")
        }
        let waiting = summary.oldestWaiting.map { String(format: "; oldest waiting %.0f s", $0) } ?? ""
        return (parts.isEmpty ? "the ledger is empty" : parts.joined(separator: " · ")) + waiting
    }

    static func line(_ row: DeliveryRecord) -> String {
        let time = RFC3339.format(row.createdAt, fractionDigits: 0, zone: .z)
        var text =
            "\(time)  \(row.channel.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0)) "
            + "\(row.status.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(row.address)  \(row.kind)  attempts \(row.attempts)"
        if let next = row.nextAttemptAt { text += "  next \(RFC3339.format(next, fractionDigits: 0, zone: .z))" }
        if let error = row.lastError { text += "  error: \(error)" }
        return text
    }
}

extension DeliveryStatus: ExpressibleByArgument {}
extension DeliveryChannel: ExpressibleByArgument {}
