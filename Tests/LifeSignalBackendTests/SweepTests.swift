import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// A database whose connections fail on the first statement matching `failOn`, to play a
/// sweeper that dies half way through a batch (after claiming rows, before committing).
struct CrashingDatabase: Database {
    let base: any Database
    let failOn: String
    var dialect: SQLDialect { base.dialect }
    var location: String { base.location }

    struct Crash: Error {}

    struct Connection: SQLConnection {
        let base: any SQLConnection
        let failOn: String
        var dialect: SQLDialect { base.dialect }
        func query(_ sql: SQL) async throws -> [SQLRow] {
            let rows = try await base.query(sql)
            if sql.text.contains(failOn) { throw Crash() }
            return rows
        }
    }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        let failOn = self.failOn
        return try await base.transaction { try await body(Connection(base: $0, failOn: failOn)) }
    }

    func close() async throws {}
    func makeChangeLogReader(pollInterval: Duration) -> any ChangeLogReader { base.makeChangeLogReader(pollInterval: pollInterval) }
}

@Suite("Missed check-in sweep")
struct SweepTests {
    @Test("a reminder at deadline − lead, exactly once, never before", arguments: Engine.allCases)
    func reminders(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        _ = try await test.backend.profiles.updateCheckInSettings(caller: bob, interval: nil, reminderLead: .twoHours)
        let carl = try await test.person("+15550000003", "Carl")
        _ = try await test.backend.profiles.updateCheckInSettings(caller: carl, interval: nil, reminderLead: ReminderLead.none)
        for caller in [ann, bob, carl] { _ = try await test.backend.checkIns.checkIn(caller: caller) }
        test.clock.advance(by: 22 * 3600 - 1)
        #expect(try await test.backend.sweep.run(caller: .service).reminders == 0)
        test.clock.advance(by: 1)
        #expect(try await test.backend.sweep.run(caller: .service).reminders == 1)
        #expect(try await test.notifications(bob, .checkInReminder).first?.body == "Your check-in is due in 2 hours.")
        test.clock.advance(by: 90 * 60)
        let report = try await test.backend.sweep.run(caller: .service)
        #expect(report.reminders == 1 && report.escalations == 0)
        test.clock.advance(by: 60)
        #expect(try await test.backend.sweep.run(caller: .service).reminders == 0)
        #expect(try await test.notifications(ann, .checkInReminder).count == 1)
        #expect(try await test.notifications(bob, .checkInReminder).count == 1)
        #expect(try await test.notifications(carl, .checkInReminder).isEmpty)
    }

    @Test("escalation at the deadline to responders who want it, exactly once; a late check-in re-arms and gives the all-clear", arguments: Engine.allCases)
    func escalation(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        try await test.backend.database.query("UPDATE contacts SET notify_on_expiry = \(false) WHERE user_id = \(SQLValue(cat.userID.rawValue))")
        try await test.backend.notifications.registerPushToken(caller: bob, token: "bob-phone")
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600 - 1)
        #expect(try await test.backend.sweep.run(caller: .service).escalations == 0)
        test.clock.advance(by: 1)
        var report = try await test.backend.sweep.run(caller: .service)
        #expect(report.escalations == 1 && report.reminders == 0 && report.notifications == 2)
        for _ in 0..<3 {
            test.clock.advance(by: 15 * 60)
            var again = try await test.backend.sweep.run(caller: .service)
            again.deletedSignInRows = 0  // housekeeping: the sign-in codes' day has passed
            #expect(again == SweepReport())
        }
        #expect(try await test.notifications(bob, .nonResponsiveDependent).first?.title == "Emergency Alert — Ann Tester")
        #expect(try await test.notifications(cat, .nonResponsiveDependent).isEmpty)
        #expect(try await test.notifications(ann, .nonResponsiveSelf).count == 1)
        #expect(await test.pushes?.messages(to: "bob-phone").map(\.data["type"]) == ["non_responsive_dependent"])
        #expect(try await test.contact(ann.userID, of: bob)?.isNonResponsive == true)
        // Ann checks in late: she is responsive again, and Bob hears so at once, and once.
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        #expect(try await test.contact(ann.userID, of: bob)?.isNonResponsive == false)
        #expect(try await test.notifications(bob, .checkInResumed).count == 1)
        #expect(await test.pushes?.messages(to: "bob-phone").map(\.data["type"]) == ["non_responsive_dependent", "check_in_resumed"])
        report = try await test.backend.sweep.run(caller: .service)
        #expect(report.resumed == 0 && report.escalations == 0)
        #expect(try await test.notifications(bob, .checkInResumed).count == 1)
        #expect(try await test.notifications(cat, .checkInResumed).isEmpty)
        // The next deadline is escalated again, once.
        test.clock.advance(by: 24 * 3600)
        #expect(try await test.backend.sweep.run(caller: .service).escalations == 1)
        #expect(try await test.backend.sweep.run(caller: .service).escalations == 0)
        #expect(try await test.notifications(bob, .nonResponsiveDependent).count == 2)
        // A reminder never arrives after its deadline passed.
        #expect(try await test.notifications(ann, .checkInReminder).count == 1)
    }

    @Test("only the service role sweeps", arguments: Engine.allCases)
    func serviceOnly(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = Caller.user(try await test.signIn("+15550000001").user.id)
        await #expect(throws: DomainError.forbidden("Only the service role may process check-ins")) { try await test.call("process-check-ins", ann) }
        await #expect(throws: DomainError.unauthenticated) { try await test.backend.sweep.run(caller: .anonymous) }
        let reply = try await test.call("process-check-ins", .service)
        #expect((reply["report"] as? [String: Any])?["escalations"] as? Int == 0)
    }

    /// Due people, each with one responder who wants escalations.
    private func seedDue(_ test: TestBackend, count: Int) async throws -> [Caller] {
        var dependents: [Caller] = []
        for index in 0..<count {
            let dependent = Caller.user(try await test.signIn("+1555100\(String(format: "%04d", index))").user.id)
            let responder = Caller.user(try await test.signIn("+1555200\(String(format: "%04d", index))").user.id)
            try await test.link(responder: responder, dependent: dependent)
            _ = try await test.backend.checkIns.checkIn(caller: dependent)
            dependents.append(dependent)
        }
        test.clock.advance(by: 24 * 3600)
        return dependents
    }

    @Test("racing sweepers escalate each due person exactly once", arguments: Engine.allCases)
    func racingSweepers(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let due = try await seedDue(test, count: 24)
        let reports = try await withThrowingTaskGroup(of: SweepReport.self) { group in
            for _ in 0..<4 { group.addTask { try await test.backend.sweep.run(caller: .service, batchSize: 3) } }
            return try await group.reduce(into: [SweepReport]()) { $0.append($1) }
        }
        #expect(reports.map(\.escalations).reduce(0, +) == due.count)
        let counts = try await test.backend.database.query(
            """
            SELECT type, count(*) AS n, count(DISTINCT user_id) AS people FROM notifications
            WHERE type IN ('non_responsive_self', 'non_responsive_dependent') GROUP BY type ORDER BY type
            """
        ).map { [try $0.string("type"), String(try $0.int("n")), String(try $0.int("people"))] }
        #expect(counts == [["non_responsive_dependent", "24", "24"], ["non_responsive_self", "24", "24"]])
    }

    @Test("a sweeper that dies mid-batch leaves its batch to the next one, which does it exactly once", arguments: Engine.allCases)
    func crashedSweeper(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let due = try await seedDue(test, count: 5)
        let crashing = LifeSignalBackend(
            database: CrashingDatabase(base: test.backend.database, failOn: "INSERT INTO notifications"),
            configuration: test.backend.configuration)
        let before = try await test.count("notifications")
        await #expect(throws: CrashingDatabase.Crash.self) { try await crashing.sweep.run(caller: .service, batchSize: 2) }
        #expect(try await test.count("notifications") == before)
        #expect(try await test.backend.database.query("SELECT id FROM users WHERE escalated_for IS NOT NULL").isEmpty)
        let report = try await test.backend.sweep.run(caller: .service, batchSize: 2)
        #expect(report.escalations == due.count && report.notifications == 2 * due.count)
        #expect(try await test.backend.sweep.run(caller: .service).escalations == 0)
    }
}
