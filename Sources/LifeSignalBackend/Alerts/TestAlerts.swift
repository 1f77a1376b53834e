import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// "This is a test": a person checks that their responders can be reached (issue 34). Each
/// responder gets a message on every channel they chose for alerts (a call too, if they chose
/// calls) and confirms with the link it carries (`/t/<token>`) or by pressing 1 on the call.
/// The person sees, per responder, what was tried, what became of it and who confirmed.
///
/// A test is a message the person causes others to receive: it counts against the sending
/// caps like an invitation, and a person may send ``perDay`` a day. Nothing about it touches
/// an incident: no alert, no tiers, no all-clear.
public struct TestAlerts: Sendable {
    let database: any Database
    let clock: BackendClock
    let notifier: Notifier

    public static let perDay = 3

    static let migration = Migration(
        version: 310, name: "test alerts",
        statements: [
            """
            CREATE TABLE lifesignal_test_alerts (
                id uuid PRIMARY KEY,
                user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                sent_at timestamptz NOT NULL)
            """,
            "CREATE INDEX lifesignal_test_alerts_user ON lifesignal_test_alerts (user_id, sent_at)",
            """
            CREATE TABLE lifesignal_test_alert_recipients (
                notification_id uuid PRIMARY KEY,
                test_id uuid NOT NULL REFERENCES lifesignal_test_alerts(id) ON DELETE CASCADE,
                responder_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                confirmed_at timestamptz,
                confirmed_by text)
            """,
            "CREATE INDEX lifesignal_test_alert_recipients_test ON lifesignal_test_alert_recipients (test_id)",
        ],
        postgresOnly: [
            "ALTER TABLE notifications DROP CONSTRAINT notifications_type_check",
            "ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN (\(Schema.notificationTypesAt240), 'test_alert'))",
            "ALTER TABLE lifesignal_test_alerts ENABLE ROW LEVEL SECURITY",
            "ALTER TABLE lifesignal_test_alert_recipients ENABLE ROW LEVEL SECURITY",
        ],
        sqliteOnly: [
            "PRAGMA writable_schema = ON",
            """
            UPDATE sqlite_master SET sql = replace(sql, '''check_ins_unpaused''', '''check_ins_unpaused'', ''test_alert''')
            WHERE type = 'table' AND name = 'notifications'
            """,
            "PRAGMA writable_schema = RESET",
            "CREATE TABLE lifesignal_schema_bump (x integer)",
            "DROP TABLE lifesignal_schema_bump",
        ])

    /// Sends a test to every responder of the caller and returns the report as it starts.
    public func send(caller: Caller) async throws -> TestAlertReport {
        let me = try caller.requireUser()
        let now = clock.now()
        let (id, outbox): (UUID, Outbox) = try await database.transaction { connection in
            guard let person = try await connection.first("SELECT first_name, last_name, phone FROM users WHERE id = \(me)" + connection.forUpdate)
            else { throw DomainError.notFound("User \(me)") }
            let responders = try await Incidents.allResponders(of: me, in: connection)
            guard !responders.isEmpty else { throw DomainError.failedPrecondition("You have no responders to test yet") }
            guard try await SendCounter.reserve("test-alert:\(me)", limit: Self.perDay, window: SendingCaps.day, now: now, in: connection) else {
                throw DomainError.rateLimited(retryAfter: SendingCaps.day)
            }
            let id = UUID()
            try await connection.query("INSERT INTO lifesignal_test_alerts (id, user_id, sent_at) VALUES (\(id), \(me), \(now))")
            let name = PersonName.inMessage(person)
            let drafts = responders.map {
                NotificationDraft(
                    recipient: $0.responder, type: .testAlert, title: "This is a test",
                    body: "\(name) is testing LifeSignal: nothing is wrong. Please confirm you got this.", contactID: me)
            }
            let outbox = try await NotificationStore.outbox(drafts, now: now, in: connection)
            for record in outbox.notifications {
                try await connection.query(
                    """
                    INSERT INTO lifesignal_test_alert_recipients (notification_id, test_id, responder_id)
                    VALUES (\(record.id), \(id), \(record.userID))
                    """)
            }
            return (id, outbox)
        }
        await notifier.deliver(outbox)
        guard let report = try await report(id) else { throw DomainError.notFound("Test alert \(id)") }
        return report
    }

    /// The caller's latest test, or `nil` when they never sent one.
    public func latest(caller: Caller) async throws -> TestAlertReport? {
        let me = try caller.requireUser()
        guard let row = try await database.query("SELECT id FROM lifesignal_test_alerts WHERE user_id = \(me) ORDER BY sent_at DESC LIMIT 1").first
        else { return nil }
        return try await report(try row.uuid("id"))
    }

    /// Who sent the test message `notification`, and whether it is confirmed; `nil` when
    /// there is no such test message.
    public func message(_ notification: UUID) async throws -> (name: String, confirmed: Bool)? {
        guard
            let row = try await database.query(
                """
                SELECT u.first_name, u.last_name, u.phone, r.confirmed_at FROM lifesignal_test_alert_recipients r
                JOIN lifesignal_test_alerts t ON t.id = r.test_id JOIN users u ON u.id = t.user_id
                WHERE r.notification_id = \(notification)
                """
            ).first
        else { return nil }
        return (PersonName.inMessage(row), row.optionalDate("confirmed_at") != nil)
    }

    /// The responder got test message `notification` (`how`: `link` or `call`). The first
    /// confirmation stands. Returns the tester's name, or `nil` for no such message.
    @discardableResult
    public func confirm(_ notification: UUID, how: String) async throws -> String? {
        let now = clock.now()
        try await database.query(
            """
            UPDATE lifesignal_test_alert_recipients SET confirmed_at = \(now), confirmed_by = \(how)
            WHERE notification_id = \(notification) AND confirmed_at IS NULL
            """)
        return try await message(notification)?.name
    }

    private func report(_ id: UUID) async throws -> TestAlertReport? {
        guard let test = try await database.query("SELECT sent_at FROM lifesignal_test_alerts WHERE id = \(id)").first else { return nil }
        var responders: [TestAlertReport.Responder] = []
        for row in try await database.query(
            """
            SELECT r.notification_id, r.responder_id, r.confirmed_at, r.confirmed_by, u.first_name, u.last_name, u.phone
            FROM lifesignal_test_alert_recipients r JOIN users u ON u.id = r.responder_id
            WHERE r.test_id = \(id) ORDER BY u.first_name, r.responder_id
            """)
        {
            let attempts = try await database.query(
                "SELECT channel, status FROM deliveries WHERE notification_id = \(try row.uuid("notification_id")) ORDER BY channel"
            ).compactMap { row in
                DeliveryChannel(rawValue: try row.string("channel")).map { TestAlertReport.Attempt(channel: $0, status: (try? row.string("status")) ?? "") }
            }
            responders.append(
                TestAlertReport.Responder(
                    id: UserID(try row.uuid("responder_id")), name: PersonName.inMessage(row), attempts: attempts,
                    confirmedAt: row.optionalDate("confirmed_at"), confirmedBy: row.optionalString("confirmed_by")))
        }
        return TestAlertReport(sentAt: try test.date("sent_at"), responders: responders)
    }
}

extension AlertService {
    var tests: TestAlerts { TestAlerts(database: database, clock: clock, notifier: notifier) }
}

extension LifeSignalBackend {
    /// Test alerts (``TestAlerts``).
    public var testAlerts: TestAlerts { alerts.tests }
}
