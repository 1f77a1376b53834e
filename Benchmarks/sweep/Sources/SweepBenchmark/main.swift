import Foundation
import LifeSignalBackend
import LifeSignalDomain

// Seeds `users` people, of whom `due` have a passed deadline and one responder each (with a
// device token), then times one `process-check-ins` sweep and prints the plan of its claim.
//
//   SweepBenchmark <database-url> [users] [due]

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: SweepBenchmark <postgres://…|sqlite-path> [users=1000000] [due=10000]")
    exit(2)
}
let url = arguments[1]
let users = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let due = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
precondition(2 * due <= users, "every due person needs a responder among the others")

let epoch = 1_800_000_000
let clock = ManualClock(Date(timeIntervalSince1970: TimeInterval(epoch)))
let backend = try await LifeSignalBackend.open(
    databaseURL: url,
    configuration: .init(jwtSecret: String(repeating: "b", count: 40), clock: .manual(clock)))
let database = backend.database
print("database: \(database.location) (\(database.dialect.rawValue)), \(users) users, \(due) due")

func seconds(_ duration: Duration) -> String {
    String(format: "%.3f s", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
}

let clockStart = ContinuousClock.now
for statement in Seed.statements(for: database.dialect, users: users, due: due, epoch: epoch) {
    try await database.transaction { try await $0.query(SQL(statement)) }
}
print("seeded in \(seconds(ContinuousClock.now - clockStart))")

print("plan of the escalation claim:")
for row in try await database.query(SQL(Seed.explain(for: database.dialect), bindings: [.timestamp(clock.now)])) {
    print("  " + (row.optionalString("QUERY PLAN") ?? row.optionalString("detail") ?? "\(row.values)"))
}

let start = ContinuousClock.now
let report = try await backend.sweep.run(caller: .service)
let elapsed = ContinuousClock.now - start
print("sweep: \(seconds(elapsed)) — escalations \(report.escalations), reminders \(report.reminders), notifications \(report.notifications)")
let again = ContinuousClock.now
let second = try await backend.sweep.run(caller: .service)
print("second sweep (nothing due): \(seconds(ContinuousClock.now - again)) — escalations \(second.escalations)")
try await backend.close()
