import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// A backend with SMS and email senders that record, and links that name their alert and
/// responder, so a test can see which message went where.
struct LedgerFixture {
    let test: TestBackend
    let sms: RecordingChannelSender
    let email: RecordingChannelSender

    static func make(
        _ engine: Engine, retry: DeliveryRetryPolicy = DeliveryRetryPolicy(), rules: DeliveryRules = DeliveryRules()
    ) async throws -> LedgerFixture {
        let sms = RecordingChannelSender()
        let email = RecordingChannelSender()
        let test = try await TestDatabases.backend(engine) { configuration in
            configuration.deliveryChannels = DeliveryChannels(sms: sms, email: email)
            configuration.deliveryRules = rules
            // The test's own bounds, but still waiting for the sends (TestDatabases.afterCommitWait).
            let wait = configuration.deliveryRetry.afterCommitWait
            configuration.deliveryRetry = retry
            configuration.deliveryRetry.afterCommitWait = wait
            configuration.responderLink = { alert, responder in URL(string: "https://ls.test/r/\(alert.uuidString.lowercased())/\(responder)") }
        }
        return LedgerFixture(test: test, sms: sms, email: email)
    }

    var backend: LifeSignalBackend { test.backend }

    /// Gives `caller` a confirmed email address.
    func confirmEmail(_ caller: Caller, _ address: String) async throws {
        let id = try caller.requireUser()
        try await backend.database.query(
            """
            UPDATE auth_users SET email = \(SQLValue(address)), email_confirmed_at = \(SQLValue.timestamp(test.clock.now)), \
            email_verified_at = \(SQLValue.timestamp(test.clock.now)) \
            WHERE id = \(SQLValue(id.rawValue))
            """)
    }

    /// Ann, with Bob as her responder (a push token, his phone, a confirmed email).
    func annAndBob() async throws -> (ann: Caller, bob: Caller) {
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        try await backend.notifications.registerPushToken(caller: bob, token: "bob-phone")
        try await confirmEmail(bob, "bob@example.com")
        return (ann, bob)
    }

    func rows(_ condition: String = "1 = 1") async throws -> [SQLRow] {
        try await backend.database.query(SQL.raw("SELECT * FROM deliveries WHERE \(condition) ORDER BY created_at, channel, address"))
    }

    func statuses(_ channel: DeliveryChannel) async throws -> [String] {
        try await rows("channel = '\(channel.rawValue)'").map { try $0.string("status") }
    }
}

@Suite("Delivery ledger")
struct DeliveryLedgerTests {
    @Test("an SOS reaches the responder by push, SMS and email, each recorded as sent with a link to the alert", arguments: Engine.allCases)
    func everyChannel(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, bob) = try await fixture.annAndBob()
        let alert = try await fixture.backend.alerts.trigger(caller: ann)
        let link = "https://ls.test/r/\(alert.id.uuidString.lowercased())/\(try bob.requireUser())"

        let texts = await fixture.sms.messages(to: "+15550000002")
        #expect(texts.count == 1)
        #expect(texts.first?.text.contains("Ann Tester") == true && texts.first?.link?.absoluteString == link)
        #expect(texts.first?.text.hasSuffix(link) == true)
        let mails = await fixture.email.messages(to: "bob@example.com")
        #expect(mails.count == 1 && mails.first?.kind == .alertActivatedReceived && mails.first?.link?.absoluteString == link)
        let pushes = await fixture.test.pushes?.messages(to: "bob-phone") ?? []
        #expect(pushes.count == 1 && pushes.first?.data["link"] == link && pushes.first?.data["alertId"] == alert.id.uuidString.lowercased())

        let bobs = try await fixture.rows("user_id = '\(try bob.requireUser())'")
        #expect(bobs.count == 3)
        for row in bobs {
            #expect(try row.string("status") == "sent" && (try row.int("attempts")) == 1 && row.optionalUUID("alert_id") == alert.id)
            // The recording SMS and email senders give ids, as Twilio and SMTP do.
            if try row.string("channel") != "push" { #expect(row.optionalString("provider_message_id")?.hasPrefix("rec-") == true) }
        }
        // Ann's own "Alert sent" is part of the incident (its row names it, so the all-clear
        // follows the channels she was told on) but not a responder's message: no link.
        let anns = try await fixture.rows("user_id = '\(try ann.requireUser())'")
        #expect(Set(try anns.map { try $0.string("channel") }) == ["sms"])
        #expect(anns.allSatisfy { $0.optionalUUID("alert_id") == alert.id })
        let annTexts = await fixture.sms.messages(to: "+15550000001")
        #expect(annTexts.count == 1 && annTexts.first?.link == nil && annTexts.first?.text.contains("/r/") == false)
    }

    @Test("each channel carries what the person chose: all, urgent or off", arguments: Engine.allCases)
    func choices(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, bob) = try await fixture.annAndBob()
        // A ping is not urgent: by default it goes by push only.
        try await fixture.backend.notifications.registerPushToken(caller: ann, token: "ann-phone")
        _ = try await fixture.backend.pings.ping(caller: bob, dependent: try ann.requireUser())
        #expect(await fixture.sms.sent.isEmpty)
        #expect(try await fixture.rows("channel = 'push' AND address = 'ann-phone'").map { try $0.string("status") } == ["sent"])
        let bobsPushes = await fixture.test.pushes?.messages(to: "bob-phone").count

        _ = try await fixture.backend.deliveries.updatePreferences(
            caller: bob, DeliveryPreferences(push: .off, sms: .all, email: .off))
        #expect(try await fixture.backend.deliveries.preferences(caller: bob) == DeliveryPreferences(push: .off, sms: .all, email: .off))
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        #expect(await fixture.sms.messages(to: "+15550000002").count == 1)
        #expect(await fixture.email.sent.isEmpty)
        #expect(await fixture.test.pushes?.messages(to: "bob-phone").count == bobsPushes)
    }

    @Test("a passing failure is retried with backoff and sent once; a lasting one stops; a dead token is forgotten", arguments: Engine.allCases)
    func retries(engine: Engine) async throws {
        var retry = DeliveryRetryPolicy()
        retry.initialDelay = 10
        retry.maximumAttempts = 3
        let fixture = try await LedgerFixture.make(engine, retry: retry)
        let (ann, _) = try await fixture.annAndBob()
        try await fixture.backend.deliveries.updatePreferences(caller: ann, DeliveryPreferences(sms: .off, email: .off))
        await fixture.sms.fail(with: [.transient("503 from the provider"), .transient("timed out")])
        await fixture.email.fail(with: [.permanent("550 no such mailbox")])
        _ = try await fixture.backend.alerts.trigger(caller: ann)

        var sms = try await fixture.rows("channel = 'sms' AND address = '+15550000002'")
        #expect(try sms.first?.string("status") == "queued" && sms.first?.optionalString("last_error") == "503 from the provider")
        let firstRetry = try #require(sms.first?.optionalDate("next_attempt_at")).timeIntervalSince(fixture.test.clock.now)
        #expect(firstRetry >= 5 && firstRetry <= 10)
        // Not due yet: nothing is claimed.
        #expect(await fixture.backend.deliveries.sendDue() == 0)
        fixture.test.clock.advance(by: 10)
        #expect(await fixture.backend.deliveries.sendDue() == 1)
        sms = try await fixture.rows("channel = 'sms' AND address = '+15550000002'")
        #expect(try sms.first?.string("status") == "queued" && (try sms.first?.int("attempts")) == 2)
        fixture.test.clock.advance(by: 20)
        #expect(await fixture.backend.deliveries.sendDue() == 1)
        #expect(await fixture.sms.messages(to: "+15550000002").count == 1)
        #expect(try await fixture.statuses(.sms) == ["sent"])

        let mail = try await fixture.rows("channel = 'email'")
        #expect(try mail.first?.string("status") == "failed" && mail.first?.optionalString("last_error") == "550 no such mailbox")
        fixture.test.clock.advance(by: 3600)
        #expect(await fixture.backend.deliveries.sendDue() == 0)

        // Three passing failures in a row: given up as failed, never sent.
        await fixture.sms.fail(with: [.transient("a"), .transient("b"), .transient("c")])
        _ = try await fixture.backend.alerts.cancel(caller: ann)
        for _ in 0..<5 {
            fixture.test.clock.advance(by: 60)
            await fixture.backend.deliveries.sendDue()
        }
        let cancelled = try await fixture.rows("channel = 'sms' AND kind = 'alert_cancelled_received'")
        #expect(try cancelled.first?.string("status") == "failed" && (try cancelled.first?.int("attempts")) == 3)
        #expect(await fixture.sms.messages(to: "+15550000002").count == 1)
    }

    @Test("rows a dead worker claimed are sent once its lease ends, not before", arguments: Engine.allCases)
    func deadWorker(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, _) = try await fixture.annAndBob()
        try await fixture.backend.deliveries.updatePreferences(caller: ann, DeliveryPreferences(sms: .off, email: .off))
        await fixture.sms.fail(with: [.transient("down")])
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        // A worker claims the SMS and dies before recording anything.
        let lease = fixture.test.clock.now.addingTimeInterval(90)
        try await fixture.backend.database.query(
            """
            UPDATE deliveries SET status = 'sending', attempts = attempts + 1, next_attempt_at = \(SQLValue.timestamp(lease)) \
            WHERE channel = 'sms' AND address = '+15550000002'
            """)
        fixture.test.clock.advance(by: 60)
        #expect(await fixture.backend.deliveries.sendDue() == 0)
        fixture.test.clock.advance(by: 31)
        #expect(await fixture.backend.deliveries.sendDue() == 1)
        #expect(await fixture.sms.messages(to: "+15550000002").count == 1)
        let row = try await fixture.rows("channel = 'sms' AND address = '+15550000002'")
        #expect(try row.first?.string("status") == "sent" && (try row.first?.int("attempts")) == 3)
    }

    @Test("a token the provider calls dead is forgotten and not tried again", arguments: Engine.allCases)
    func deadToken(engine: Engine) async throws {
        let apns = RecordingChannelSender()
        let test = try await TestDatabases.backend(engine) { $0.deliveryChannels = DeliveryChannels(apns: apns) }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        try await test.backend.notifications.registerPushToken(caller: bob, token: "bob-iphone", platform: .apns)
        try await test.backend.notifications.registerPushToken(caller: bob, token: "bob-android")
        await apns.fail(with: [.addressGone("410 Unregistered")])
        _ = try await test.backend.alerts.trigger(caller: ann)
        #expect(await apns.sent.isEmpty)
        #expect(await test.pushes?.messages(to: "bob-android").count == 1)
        #expect(await test.pushes?.messages(to: "bob-iphone").isEmpty == true)
        #expect(try await test.backend.database.query("SELECT token FROM push_tokens").map { try $0.string("token") } == ["bob-android"])
        _ = try await test.backend.alerts.cancel(caller: ann)
        #expect(await apns.sent.isEmpty)
        #expect(await test.pushes?.messages(to: "bob-android").count == 2)
        // Both pushes are in the Android device's inbox, once each.
        #expect(try await test.backend.database.query("SELECT id FROM device_messages WHERE token = 'bob-android'").count == 2)
    }

    @Test("a rule whose transaction fails after queueing leaves neither its event nor its deliveries", arguments: Engine.allCases)
    func rolledBack(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, _) = try await fixture.annAndBob()
        let failing = LifeSignalBackend(
            database: CrashingDatabase(base: fixture.backend.database, failOn: "INSERT INTO deliveries"), configuration: fixture.backend.configuration)
        let tables = ["alerts", "notifications", "deliveries"]
        var before: [Int] = []
        for table in tables { before.append(try await fixture.test.count(table)) }
        await #expect(throws: CrashingDatabase.Crash.self) { _ = try await failing.alerts.trigger(caller: ann) }
        var after: [Int] = []
        for table in tables { after.append(try await fixture.test.count(table)) }
        #expect(after == before && before[0] == 0)
        #expect(await fixture.sms.sent.isEmpty)
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        #expect(try await fixture.test.count("deliveries") == 4)
    }

    @Test("the ledger is the service role's: list-deliveries masks addresses; people only choose their channels", arguments: Engine.allCases)
    func functions(engine: Engine) async throws {
        let fixture = try await LedgerFixture.make(engine)
        let (ann, bob) = try await fixture.annAndBob()
        _ = try await fixture.backend.alerts.trigger(caller: ann)
        await #expect(throws: DomainError.self) { _ = try await fixture.test.call("list-deliveries", bob) }
        let listed = try await fixture.test.call("list-deliveries", .service, ["channel": "sms", "status": "sent"])
        let rows = try #require(listed["deliveries"] as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(Set(rows.compactMap { $0["address"] as? String }) == ["+1555…01", "+1555…02"])
        await #expect(throws: DomainError.self) { _ = try await fixture.test.call("list-deliveries", .service, ["limit": 0]) }

        let updated = try await fixture.test.call("update-delivery-preferences", bob, ["sms": "off"])
        #expect((updated["preferences"] as? [String: String]) == ["push": "all", "sms": "off", "email": "urgent", "voice": "off"])
        await #expect(throws: DomainError.self) { _ = try await fixture.test.call("update-delivery-preferences", bob, ["sms": "sometimes"]) }
        await #expect(throws: DomainError.self) { _ = try await fixture.test.call("get-delivery-preferences", .anonymous) }
        let read = try await fixture.test.call("get-delivery-preferences", bob)
        #expect((read["preferences"] as? [String: String])?["sms"] == "off")
        // Two devices changing different channels at once both keep their change.
        async let first = fixture.test.call("update-delivery-preferences", bob, ["push": "urgent"])
        async let second = fixture.test.call("update-delivery-preferences", bob, ["email": "off"])
        _ = try await (first, second)
        #expect(try await fixture.backend.deliveries.preferences(caller: bob) == DeliveryPreferences(push: .urgent, sms: .off, email: .off))
    }

    @Test("the backoff doubles from the first delay up to the most, with jitter between half and all")
    func backoff() {
        let policy = DeliveryRetryPolicy()
        #expect(policy.delay(afterAttempt: 1, random: 1) == 10)
        #expect(policy.delay(afterAttempt: 3, random: 1) == 40)
        #expect(policy.delay(afterAttempt: 3, random: 0.5) == 20)
        #expect(policy.delay(afterAttempt: 40, random: 1) == 600)
    }
}

@Suite("Delivery ledger, two servers")
struct DeliveryLedgerSharingTests {
    @Test("two servers over one PostgreSQL send every queued row exactly once between them")
    func twoServers() async throws {
        let first = RecordingChannelSender()
        let second = RecordingChannelSender()
        let test = try await TestDatabases.backend(.postgres) { $0.deliveryChannels = DeliveryChannels(sms: first) }
        let other = try await TestDatabases.reopen(test) { $0.deliveryChannels = DeliveryChannels(sms: second) }
        let ann = try await test.person("+15550000001", "Ann")
        let annID = try ann.requireUser()
        // 300 SMS queued as a server that died before sending would leave them.
        let now = SQLValue.timestamp(test.clock.now)
        for batch in 0..<3 {
            let rows = (0..<100).map { index in
                "('\(UUID().uuidString.lowercased())', '\(UUID().uuidString.lowercased())', '\(annID)', 'sms', "
                    + "'+1555100\(String(format: "%04d", batch * 100 + index))', 'system', 'T', 'B', 'queued', $1, $1, $1)"
            }
            try await test.backend.database.query(
                SQL(
                    """
                    INSERT INTO deliveries (id, notification_id, user_id, channel, address, kind, title, body, status, next_attempt_at,
                    created_at, updated_at) VALUES \(rows.joined(separator: ", "))
                    """, bindings: [now]))
        }
        async let a: Int = {
            var total = 0
            while true {
                let n = await test.backend.deliveries.sendDue(limit: 7)
                if n == 0 { return total }
                total += n
            }
        }()
        async let b: Int = {
            var total = 0
            while true {
                let n = await other.backend.deliveries.sendDue(limit: 7)
                if n == 0 { return total }
                total += n
            }
        }()
        let (claimedA, claimedB) = await (a, b)
        let sent = await first.sent.map(\.address) + second.sent.map(\.address)
        #expect(claimedA + claimedB == 300)
        #expect(sent.count == 300 && Set(sent).count == 300)
        print("two servers: \(claimedA) and \(claimedB) rows claimed")
        #expect(try await test.backend.database.query("SELECT id FROM deliveries WHERE status <> 'sent'").isEmpty)
    }
}
