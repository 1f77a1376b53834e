import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// A responder's fallback order: an alert tries one channel at a time (push, then SMS, then
/// email), moves on when one fails or its share of the tier's delay passes, then the next tier,
/// then everyone again; anyone answering stops what is still held. Every step is a ledger row.
@Suite("Delivery: fallback orders")
struct FallbackOrderTests {
    struct Fixture {
        var test: TestBackend
        var push: RecordingPushSender
        var sms: RecordingChannelSender
        var email: RecordingChannelSender
        var ann: Caller, bob: Caller, cat: Caller
    }

    static func start(_ engine: Engine) async throws -> Fixture {
        let push = RecordingPushSender()
        let sms = RecordingChannelSender()
        let email = RecordingChannelSender()
        let test = try await TestDatabases.backend(engine) { configuration in
            configuration.pushSender = push
            configuration.deliveryChannels = DeliveryChannels(sms: sms, email: email)
        }
        let ann = try await test.person("+15550009001", "Ann")
        let bob = try await test.person("+15550009002", "Bob")
        let cat = try await test.person("+15550009003", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        try await test.setTier(cat, 2, for: ann)
        _ = try await test.call("update-escalation-settings", ann, ["tierDelaySeconds": 3600])
        try await test.backend.notifications.registerPushToken(caller: bob, token: "bob-phone")
        try await test.backend.database.query(
            "UPDATE auth_users SET email = 'bob@example.com', email_confirmed_at = \(SQLValue(test.clock.now)), email_verified_at = \(SQLValue(test.clock.now)) WHERE id = \(SQLValue(bob.userID.rawValue))"
        )
        let order = try await test.call("update-delivery-preferences", bob, ["fallback": ["push", "sms", "email"]])
        #expect((order["preferences"] as? [String: Any])?["fallback"] as? [String] == ["push", "sms", "email"])
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        return Fixture(test: test, push: push, sms: sms, email: email, ann: ann, bob: bob, cat: cat)
    }

    /// The rows of `user`'s messages of `kind`, as "channel status", in the order of Bob's fallback.
    static func steps(_ test: TestBackend, to user: Caller, kind: NotificationType) async throws -> [String] {
        let order = ["push", "sms", "email", "voice"]
        return try await test.backend.database.query(
            "SELECT channel, status FROM deliveries WHERE user_id = \(SQLValue(user.userID.rawValue)) AND kind = \(kind.rawValue)"
        ).map { (try $0.string("channel"), try $0.string("status")) }
            .sorted { (order.firstIndex(of: $0.0) ?? 9) < (order.firstIndex(of: $1.0) ?? 9) }.map { "\($0.0) \($0.1)" }
    }

    @Test("nobody answering: push, then SMS, then email, then the next tier, then everyone again; a failure moves on at once", arguments: Engine.allCases)
    func wholeChain(engine: Engine) async throws {
        let fixture = try await Self.start(engine)
        let test = fixture.test
        test.clock.advance(by: 24 * 3600 + 1)
        _ = try await test.sweep()
        #expect(await fixture.push.messages(to: "bob-phone").count == 1)
        #expect(await fixture.sms.messages(to: "+15550009002").isEmpty)
        #expect(await fixture.email.messages(to: "bob@example.com").isEmpty)
        #expect(try await Self.steps(test, to: fixture.bob, kind: .nonResponsiveDependent) == ["push sent", "sms held", "email held"])

        // Its share of the tier's delay later (an hour over three channels), SMS; Twilio refuses it
        // for good, and email follows at once, not at its turn.
        test.clock.advance(by: 1199)
        await test.backend.deliveries.sendDue()
        #expect(await fixture.sms.messages(to: "+15550009002").isEmpty, "not before its turn")
        test.clock.advance(by: 1)
        await fixture.sms.fail(with: [.permanent("Twilio refused the SMS (400, code 21211)")])
        await test.backend.deliveries.sendDue()
        await test.backend.deliveries.sendDue()
        #expect(await fixture.email.messages(to: "bob@example.com").count == 1)
        let afterFailure = try await Self.steps(test, to: fixture.bob, kind: .nonResponsiveDependent)
        #expect(afterFailure == ["push sent", "sms failed", "email sent"], "\(afterFailure)")
        #expect(await fixture.sms.messages(to: "+15550009003").isEmpty, "tier 2 waits for the tier's delay")

        // The tier's delay: Cat, all at once (no order).
        test.clock.advance(by: 2400)
        _ = try await test.sweep()
        #expect(await fixture.sms.messages(to: "+15550009003").count == 1)
        // Last tier told, nobody answering, no repeats set: a tier delay later everyone hears
        // it again, Bob's order starting over.
        test.clock.advance(by: 3600)
        let report = try await test.sweep()
        #expect(report["repeats"] as? Int == 1)
        #expect(await fixture.push.messages(to: "bob-phone").count == 2)
        #expect(await fixture.sms.messages(to: "+15550009003").count == 2)
        let rows = try await test.backend.database.query(
            "SELECT status FROM deliveries WHERE user_id = \(SQLValue(fixture.bob.userID.rawValue)) AND status = 'held'")
        #expect(rows.count == 2, "the repeat's SMS and email wait their turns")

        // The alert's timeline shows every step, to the person and their responders only.
        let alertID = try #require(try await test.backend.alerts.activeAlert(caller: fixture.ann)).id
        let timeline = try await test.backend.alerts.timeline(caller: fixture.ann, alertID: alertID)
        #expect(timeline.filter { $0.recipient == "Bob Tester" }.map(\.status).contains("failed"))
        #expect(timeline.filter { $0.status == "held" }.count == 2)
        #expect(try await test.backend.alerts.timeline(caller: fixture.cat, alertID: alertID) == timeline)
        let stranger = try await test.person("+15550009009", "Zed")
        await #expect(throws: DomainError.forbidden("Only a responder of this person may see their alerts")) {
            _ = try await test.backend.alerts.timeline(caller: stranger, alertID: alertID)
        }

        // Cat answers: Bob's held steps are not needed, and never go.
        _ = try await test.backend.alerts.respond(caller: fixture.cat, alertID: alertID)
        test.clock.advance(by: 3600)
        await test.backend.deliveries.sendDue()
        // What reached Bob after that is "Cat is on it", on the channels he was told on.
        #expect(await fixture.sms.messages(to: "+15550009002").map(\.kind) == [.alertAcknowledged], "the refused SMS never arrived")
        let emails = await fixture.email.messages(to: "bob@example.com").map(\.kind)
        #expect(emails == [.nonResponsiveDependent, .alertAcknowledged], "\(emails)")
        let cancelled = try await test.backend.database.query(
            "SELECT status FROM deliveries WHERE user_id = \(SQLValue(fixture.bob.userID.rawValue)) AND status = 'cancelled'")
        #expect(cancelled.count == 2)
    }

    @Test("an order naming a channel twice, or no channel, is refused and changes nothing", arguments: [Engine.sqlite])
    func badOrders(engine: Engine) async throws {
        let fixture = try await Self.start(engine)
        await #expect(throws: DomainError.invalidArgument("A fallback order names each channel at most once")) {
            _ = try await fixture.test.call("update-delivery-preferences", fixture.bob, ["fallback": ["sms", "sms"]])
        }
        await #expect(throws: DomainError.invalidArgument("fallback names push, sms, email or voice, not \"pigeon\"")) {
            _ = try await fixture.test.call("update-delivery-preferences", fixture.bob, ["fallback": ["pigeon"]])
        }
        let stored = try await fixture.test.backend.deliveries.preferences(caller: fixture.bob)
        #expect(stored.fallback == [.push, .sms, .email])
    }
}

@Suite("Delivery: fallback orders, two servers")
struct FallbackTwoServerTests {
    @Test("a server gone in the middle of a fallback chain: the other sends each remaining step once, none twice")
    func serverGoneMidChain() async throws {
        let fixture = try await FallbackOrderTests.start(.postgres)
        let test = fixture.test
        let sms2 = RecordingChannelSender()
        let email2 = RecordingChannelSender()
        let push2 = RecordingPushSender()
        let other = try await TestDatabases.reopen(test) {
            $0.deliveryChannels = DeliveryChannels(sms: sms2, email: email2)
            $0.pushSender = push2
        }
        test.clock.advance(by: 24 * 3600 + 1)
        _ = try await test.sweep()  // the first server tells tier 1: Bob's push goes
        #expect(await fixture.push.messages(to: "bob-phone").count == 1)
        // The first server is gone from here on. The second, alone on the database, sends each
        // of the chain's later steps at its turn, and both servers racing never send one twice.
        try await test.backend.close()
        test.clock.advance(by: 1200)
        async let first: Int = other.backend.deliveries.sendDue()
        async let second: Int = other.backend.deliveries.sendDue()
        _ = await (first, second)
        test.clock.advance(by: 1200)
        for _ in 0..<3 { await other.backend.deliveries.sendDue() }
        #expect(await sms2.messages(to: "+15550009002").count == 1)
        #expect(await email2.messages(to: "bob@example.com").count == 1)
        #expect(await fixture.sms.messages(to: "+15550009002").isEmpty)
        #expect(await fixture.email.messages(to: "bob@example.com").isEmpty)
        let rows = try await other.backend.database.query(
            "SELECT channel, status, attempts FROM deliveries WHERE user_id = \(SQLValue(fixture.bob.userID.rawValue)) ORDER BY next_attempt_at"
        ).map { "\(try $0.string("channel")) \(try $0.string("status")) \(try $0.int("attempts"))" }
        #expect(rows.filter { !$0.hasPrefix("push") } == ["sms sent 1", "email sent 1"], "\(rows)")
    }
}
