import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalServer

// 10,000 missed check-ins escalated by one sweep, delivered by SMS, email and push through
// the senders `serve` builds, to provider stand-ins on 127.0.0.1 (started by run.sh).
//
//   DeliveryBenchmark standins  <database-url> [people]   real senders → the stand-ins
//   DeliveryBenchmark recording <database-url> [people]   the same sweep, senders that only record
//   DeliveryBenchmark providers [messages]                 the senders → the stand-ins, no database
//
// BENCH_CONCURRENCY sets the ledger's sends in flight (default 16, serve's).

let arguments = CommandLine.arguments
guard arguments.count >= 2, ["standins", "recording", "providers"].contains(arguments[1]) else {
    print("usage: DeliveryBenchmark standins|recording <postgres://…|sqlite-path> [people=10000] | providers [messages=5000]")
    exit(2)
}
let mode = arguments[1]
let concurrency = ProcessInfo.processInfo.environment["BENCH_CONCURRENCY"].flatMap { Int($0) } ?? DeliveryRetryPolicy().concurrency

if mode == "providers" {
    let count = arguments.count > 2 ? Int(arguments[2]) ?? 5000 : 5000
    try await ProviderRun.run(count: count, concurrency: concurrency)
    exit(0)
}

guard arguments.count >= 3 else {
    print("usage: DeliveryBenchmark \(mode) <database-url> [people]")
    exit(2)
}
let url = arguments[2]
let people = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
var providers: Providers?
if mode == "standins" { providers = try Providers.fromEnvironment() }
let built = try providers?.channels()

var configuration = LifeSignalBackend.Configuration(jwtSecret: String(repeating: "b", count: 40))
configuration.deliveryChannels = built?.channels
    ?? DeliveryChannels(sms: RecordingChannelSender(), email: RecordingChannelSender(), apns: RecordingChannelSender())
configuration.deliveryRetry.concurrency = concurrency
// Messages carry a responder link, as serve's do (a signed token in each).
if let base = URL(string: "https://lifesignal.example") {
    let links = ResponderLinks(jwtSecret: configuration.jwtSecret, baseURL: base)
    configuration.responderLink = { alert, responder in links.url(alertID: alert, responder: responder, now: Date()) }
}
let backend = try await LifeSignalBackend.open(databaseURL: url, configuration: configuration)
let database = backend.database
print("database: \(database.location) (\(database.dialect.rawValue)); \(people) people due, \(mode), \(concurrency) sends in flight")

let seeding = ContinuousClock.now
for statement in Seed.statements(for: database.dialect, people: people, now: Int(Date().timeIntervalSince1970)) {
    _ = try await database.transaction { try await $0.query(SQL(statement)) }
}
print(String(format: "seeded %d people and %d responders in %.3f s", people, people, Format.seconds(ContinuousClock.now - seeding)))

// The sweep sends what it queued right after each batch commits (serve's path); the loop
// after it is the DeliveryWorker's, for anything the sweep could not send.
let began = Date().timeIntervalSince1970
let start = ContinuousClock.now
let cpuBefore = CPUSample.now()
let report = try await backend.sweep.run(caller: .service)
let sweep = Format.seconds(ContinuousClock.now - start)
print(String(format: "sweep: %.3f s: %d escalations, %d notifications", sweep, report.escalations, report.notifications))
var left = try await database.query("SELECT id FROM deliveries WHERE status IN ('queued', 'sending')").count
if left > 0 { print("left for the worker after the sweep: \(left)") }
let drainLimit = ContinuousClock.now + .seconds(300)
while left > 0, ContinuousClock.now < drainLimit {
    if await backend.deliveries.sendDue(limit: 200) == 0 { try await Task.sleep(for: .seconds(1)) }
    left = try await database.query("SELECT id FROM deliveries WHERE status IN ('queued', 'sending')").count
}
let done = Date().timeIntervalSince1970 - began
print(String(format: "all sent or given up %.3f s after the sweep began; %d still waiting", done, left))
print(cpuBefore.report(until: CPUSample.now(), seconds: done))

let expected: [DeliveryChannel: Int] = [.sms: 2 * people, .email: people, .push: people]
print("ledger (status: rows, distinct recipients and addresses; last sent_at after the sweep began):")
var problems: [String] = []
for channel in DeliveryChannel.allCases {
    let rows = try await database.query(SQL("""
        SELECT status, count(*) AS n, count(DISTINCT user_id) AS people, count(DISTINCT address) AS addresses, max(sent_at) AS last
        FROM deliveries WHERE channel = $1 GROUP BY status ORDER BY status
        """, bindings: [.text(channel.rawValue)]))
    for row in rows {
        let status = try row.string("status"), count = try row.int("n")
        let recipients = try row.int("people"), addresses = try row.int("addresses")
        let last = row.optionalDate("last").map { String(format: "%.3f s", $0.timeIntervalSince1970 - began) } ?? "-"
        print("  \(channel.rawValue) \(status): \(count) rows, \(recipients) recipients, \(addresses) addresses, last \(last)")
        if status == "sent" || status == "delivered" {
            if count != expected[channel] || addresses != count { problems.append("ledger \(channel.rawValue): \(count) \(status)") }
        } else {
            problems.append("ledger \(channel.rawValue): \(count) \(status)")
        }
    }
}

if let providers, let apns = built?.apns {
    // The stand-ins print as they accept; the stamper may be a moment behind.
    var received = try providers.received()
    let patience = ContinuousClock.now + .seconds(60)
    while DeliveryChannel.allCases.contains(where: { (received[$0]?.accepted ?? 0) < (expected[$0] ?? 0) }), ContinuousClock.now < patience {
        try await Task.sleep(for: .milliseconds(200))
        received = try providers.received()
    }
    print("accepted by the stand-ins (time after the sweep began):")
    for channel in DeliveryChannel.allCases {
        guard let got = received[channel] else { continue }
        print(Format.line(channel.rawValue, got.accepted, distinct: got.addresses.count, first: got.first - began, last: got.last - began)
              + (got.refused > 0 ? ", \(got.refused) refused" : ""))
        if got.accepted != expected[channel] || got.addresses.count != got.accepted {
            problems.append("\(channel.rawValue): \(got.accepted) accepted, \(got.addresses.count) addresses, \(expected[channel] ?? 0) expected")
        }
    }
    let all = received.values.reduce(0) { $0 + $1.accepted }
    let last = received.values.map(\.last).max() ?? began
    print(String(format: "  all   %7d messages, last %.3f s after the sweep began: %.0f messages/s", all, last - began, Double(all) / (last - began)))
    try await apns.shutdown()
}
print(problems.isEmpty ? "every person and responder got exactly one message on each of their channels"
      : "PROBLEMS: " + problems.joined(separator: "; "))
try await backend.close()
exit(problems.isEmpty ? 0 : 1)
