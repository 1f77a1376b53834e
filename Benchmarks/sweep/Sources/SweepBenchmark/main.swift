import Foundation
import LifeSignalBackend
import LifeSignalDomain

// Seeds `users` people, of whom `due` have a passed deadline and one responder each (with a
// device token), plus `stale` notifications past retention, then times one
// `process-check-ins` sweep and prints the plan of its claim. While the sweep runs, a writer
// updates one person's row every 10 ms (the write a sign-in makes) and reports how long
// those writes waited: the sweep must hold SQLite's single writer only in short slices.
//
//   SweepBenchmark <database-url> [users] [due] [stale]

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: SweepBenchmark <postgres://…|sqlite-path> [users=1000000] [due=10000]")
    exit(2)
}
let url = arguments[1]
let users = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let due = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
let stale = arguments.count > 4 ? Int(arguments[4]) ?? 100_000 : 100_000
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
let old = clock.now.addingTimeInterval(-8 * 24 * 3600)
try await database.query("INSERT INTO notifications (user_id, type, title, body, created_at) SELECT id, 'system', 'old', 'old', \(SQLValue.timestamp(old)) FROM users LIMIT \(SQLValue.int(Int64(stale)))")
print("seeded in \(seconds(ContinuousClock.now - clockStart)) (\(stale) stale notifications)")

print("plan of the escalation claim:")
for row in try await database.query(SQL(Seed.explain(for: database.dialect), bindings: [.timestamp(clock.now)])) {
    print("  " + (row.optionalString("QUERY PLAN") ?? row.optionalString("detail") ?? "\(row.values)"))
}

/// One small write every 10 ms until cancelled; the time each took, waiting included.
let writer = Task<[Duration], Never> {
    var waits: [Duration] = []
    var n = 0
    while !Task.isCancelled {
        n += 1
        let phone = String(15550000000 + (n % max(1, users)) + 1)
        let began = ContinuousClock.now
        _ = try? await database.query("UPDATE auth_users SET updated_at = \(SQLValue.timestamp(clock.now)) WHERE phone = \(SQLValue.text(phone))")
        waits.append(ContinuousClock.now - began)
        try? await Task.sleep(for: .milliseconds(10))
    }
    return waits
}
let start = ContinuousClock.now
let report = try await backend.sweep.run(caller: .service)
let elapsed = ContinuousClock.now - start
writer.cancel()
let waits = await writer.value.sorted()
if !waits.isEmpty {
    func at(_ q: Double) -> String { seconds(waits[min(waits.count - 1, Int(Double(waits.count) * q))]) }
    print("writes during the sweep: \(waits.count), p50 \(at(0.5)), p99 \(at(0.99)), max \(seconds(waits[waits.count - 1]))")
}
print("sweep: \(seconds(elapsed)) — escalations \(report.escalations), reminders \(report.reminders), notifications \(report.notifications), stale notifications deleted \(report.deletedNotifications)")
let again = ContinuousClock.now
let second = try await backend.sweep.run(caller: .service)
print("second sweep (nothing due): \(seconds(ContinuousClock.now - again)) — escalations \(second.escalations)")
try await backend.close()
