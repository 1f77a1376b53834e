import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// A server that stops gives the sends its rules left running a bounded moment to finish, so an
/// SOS taken by a slow provider is recorded as sent rather than left claimed until its lease ends.
@Suite("Delivery: draining on shutdown")
struct DrainTests {
    /// An SMS provider that takes `delay` to answer.
    struct SlowSender: ChannelSender {
        let delay: Duration
        let inner = RecordingChannelSender()

        func send(_ message: OutboundMessage) async -> DeliveryOutcome {
            try? await Task.sleep(for: delay)
            return await inner.send(message)
        }
    }

    @Test("a send still running when the rule answered is finished by drain, within its bound", arguments: Engine.allCases)
    func drainFinishesBackgroundSends(engine: Engine) async throws {
        let slow = SlowSender(delay: .seconds(2))
        let test = try await TestDatabases.backend(engine) {
            $0.deliveryChannels = DeliveryChannels(sms: slow)
            $0.deliveryRetry.afterCommitWait = .milliseconds(50)
        }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        _ = try await test.backend.alerts.trigger(caller: ann)
        let waiting = try await test.backend.database.query("SELECT status FROM deliveries WHERE address = '+15550000002'")
        // Claimed and at the provider, or (on a loaded machine, past the rule's 50 ms) not yet
        // claimed: either way the rule answered before the provider, and drain finishes it.
        let before = try waiting.map { try $0.string("status") }
        #expect(before == ["sending"] || before == ["queued"], "the rule answered before the provider: \(before)")

        #expect(await test.backend.deliveries.drain(atMost: .seconds(60)))
        let sent = try await test.backend.database.query("SELECT status FROM deliveries WHERE address = '+15550000002'")
        #expect(try sent.map { try $0.string("status") } == ["sent"])
        #expect(await slow.inner.messages(to: "+15550000002").count == 1)
        // Nothing left: a second drain returns at once.
        #expect(await test.backend.deliveries.drain(atMost: .milliseconds(1)))
    }

    @Test("drain gives up at its bound and says so")
    func drainIsBounded() async throws {
        let slow = SlowSender(delay: .seconds(30))
        let test = try await TestDatabases.backend(.sqlite) {
            $0.deliveryChannels = DeliveryChannels(sms: slow)
            $0.deliveryRetry.afterCommitWait = .milliseconds(50)
        }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        _ = try await test.backend.alerts.trigger(caller: ann)
        #expect(await test.backend.deliveries.drain(atMost: .milliseconds(300)) == false)
    }
}
