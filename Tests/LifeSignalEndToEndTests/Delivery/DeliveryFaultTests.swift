import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// Issue 19's faults against a real Twilio stand-in process: a provider silent for a full
/// minute, and a `lifesignal serve` process killed (SIGKILL) in the middle of sending a sweep's
/// messages. Nothing is lost; what is sent twice is bounded by what the dead server had in
/// flight.
@Suite("Delivery: faults", .serialized)
struct DeliveryFaultTests {
    static let sid = "AC" + String(repeating: "7", count: 32), token = "fault-auth-token", sender = "+15005550006"

    static func twilio(_ port: Int) throws -> TwilioChannelSender {
        TwilioChannelSender(
            client: TwilioClient(
                configuration: TwilioConfiguration(
                    accountSID: sid, authToken: token, sender: .number(sender),
                    baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))))
    }

    /// The stand-in's request lines addressed to `number` (every attempt, taken or not).
    static func requests(_ standIn: StandInProcess, to number: String) -> Int {
        standIn.records.filter { DeliveryStoryTests.fields($0)["To"] == number }.count
    }

    static func smsRows(_ test: TestBackend, to number: String) async throws -> [SQLRow] {
        try await test.backend.database.query(
            SQL(
                "SELECT status, attempts, last_error FROM deliveries WHERE channel = 'sms' AND address = $1", bindings: [.text(number)]))
    }

    @Test(
        "Twilio silent for a minute: the sweep answers anyway, the attempt times out (30 s), the other responder's SMS is not held back, the retry arrives once"
    )
    func providerSilentForAMinute() async throws {
        let standIn = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { standIn.stop() }
        let test = try await TestDatabases.backend(.sqlite) { configuration in
            configuration.deliveryChannels = DeliveryChannels(sms: try? Self.twilio(standIn.port))
            configuration.deliveryRetry.afterCommitWait = DeliveryRetryPolicy().afterCommitWait
        }
        let backend = test.backend
        let ann = try await DeliveryStoryTests.person(test, "+15550008001", "Ann")
        let bob = try await DeliveryStoryTests.person(test, "+15559970001", "Bob")  // the stand-in hangs on his first
        let cat = try await DeliveryStoryTests.person(test, "+15550008003", "Cat")
        for responder in [bob, cat] {
            _ = try await backend.contacts.addContact(caller: ann, qrCodeID: try await backend.contacts.qrCode(caller: responder).id, roles: .responder)
        }
        _ = try await backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600 + 1)

        // The sweep sends right after its commit and answers within a few seconds, while Bob's
        // attempt goes on waiting out the client's 30 s.
        _ = try await backend.sweep.run(caller: .service)
        #expect(try await Self.smsRows(test, to: "+15559970001").map { try $0.string("status") } == ["sending"])
        _ = try await standIn.records(atLeast: 1) { $0["hung"] as? String == "+15559970001" }
        // While Twilio is silent for Bob, Cat's SMS has already been taken.
        _ = try await standIn.records(atLeast: 1) { DeliveryStoryTests.fields($0)["To"] == "+15550008003" }
        let deadline = ContinuousClock.now + .seconds(180)
        while try await Self.smsRows(test, to: "+15559970001").first?.string("status") == "sending", ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        let afterTimeout = try #require(try await Self.smsRows(test, to: "+15559970001").first)
        #expect(try afterTimeout.string("status") == "queued" && afterTimeout.int("attempts") == 1)
        #expect(afterTimeout.optionalString("last_error")?.isEmpty == false)
        #expect(try await Self.smsRows(test, to: "+15550008003").map { try $0.string("status") } == ["sent"])

        // Past the backoff, the worker's next round sends it; Twilio answers this time.
        test.clock.advance(by: 11 * 60)
        #expect(await backend.deliveries.sendDue() == 1)
        let retried = try #require(try await Self.smsRows(test, to: "+15559970001").first)
        #expect(try retried.string("status") == "sent" && retried.int("attempts") == 2)
        #expect(await backend.deliveries.sendDue() == 0)
        // Two requests reached the stand-in for Bob, one of which it never answered: taken once.
        #expect(Self.requests(standIn, to: "+15559970001") == 2)
        #expect(standIn.records.filter { $0["hung"] as? String == "+15559970001" }.count == 1)
        #expect(Self.requests(standIn, to: "+15550008003") == 1)
    }

    @Test("serve killed (SIGKILL) mid-delivery of a sweep over PostgreSQL: another server sends the rest once its lease ends; nothing is lost")
    func serverKilledMidDelivery() async throws {
        let standIn = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { standIn.stop() }
        // Deadlines two days ago by the real clock, which `serve` runs on.
        let clock = ManualClock(Date().addingTimeInterval(-3 * 86_400))
        let test = try await TestDatabases.backend(.postgres, clock: clock)
        let people = 100
        let responders = (0..<people).map { "+1555996\(String(format: "%04d", $0))" }  // answered after 0.3 s each
        for (index, number) in responders.enumerated() {
            let dependent = try await DeliveryStoryTests.person(test, "+1555001\(String(format: "%04d", index))", "Dee")
            let responder = try await DeliveryStoryTests.person(test, number, "Ray")
            _ = try await test.backend.contacts.addContact(
                caller: dependent, qrCodeID: try await test.backend.contacts.qrCode(caller: responder).id, roles: .responder)
            _ = try await test.backend.checkIns.checkIn(caller: dependent)
        }

        let serve = try await ServeProcess(
            environment: [
                "LIFESIGNAL_TWILIO_ACCOUNT_SID": Self.sid, "LIFESIGNAL_TWILIO_AUTH_TOKEN": Self.token,
                "LIFESIGNAL_TWILIO_FROM": Self.sender, "LIFESIGNAL_TWILIO_API_URL": "http://127.0.0.1:\(standIn.port)",
            ], sweepInterval: 1, database: try ServeProcess.postgresURL(of: test))
        defer { Task { await serve.stop() } }

        // Killed once the stand-in has taken some of the sweep's messages, with most still to go.
        let taken = try await standIn.records(atLeast: 10, limit: .seconds(180)) { Self.isResponder(DeliveryStoryTests.fields($0)["To"]) }
        serve.process.send(SIGKILL)
        let ended = await serve.process.finish(within: .seconds(60))
        #expect(ended.status == 128 + SIGKILL, "serve ended by itself: \(ended.output)")
        let beforeKill = Set(standIn.records.compactMap { DeliveryStoryTests.fields($0)["To"] }.filter(Self.isResponder)).count
        let unsent =
            try await test.backend.database.query(
                "SELECT count(*) AS n FROM deliveries WHERE channel = 'sms' AND status <> 'sent' AND address LIKE '+1555996%'"
            ).first?.int("n") ?? 0
        print("serve killed after \(taken.count)+ messages: \(beforeKill) responders reached, \(unsent) rows left unsent")
        #expect(unsent > 0, "the sweep's messages were all sent before the kill; the test proved nothing")
        #expect(try await test.count("notifications") >= 2 * people, "the sweep committed before the kill")

        // Another server over the same database, once the dead one's claims have lapsed.
        clock.set(Date().addingTimeInterval(DeliveryRetryPolicy().lease + 1))
        let other = try await TestDatabases.reopen(test) { configuration in
            configuration.deliveryChannels = DeliveryChannels(sms: try? Self.twilio(standIn.port))
        }
        while await other.backend.deliveries.sendDue() > 0 {}

        let rows = try await other.backend.database.query(
            "SELECT address, status FROM deliveries WHERE channel = 'sms' AND address LIKE '+1555996%'")
        #expect(rows.count == people && rows.allSatisfy { (try? $0.string("status")) == "sent" })
        let received = standIn.records.compactMap { DeliveryStoryTests.fields($0)["To"] }.filter(Self.isResponder)
        #expect(Set(received) == Set(responders), "nothing lost: every responder's SMS reached Twilio")
        // Sent twice only what the dead server had sent but not yet recorded: those in flight
        // (16 at a time) and at most one unrecorded group of results.
        let twice = received.count - people
        print("after the second server: \(received.count) messages for \(people) responders (\(twice) sent twice)")
        #expect(twice <= DeliveryRetryPolicy().concurrency + DeliveryLedger.recordEvery)
    }

    static func isResponder(_ number: String?) -> Bool { number?.hasPrefix("+1555996") == true }

}
