import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// A number Twilio says has opted out (21610) is not tried again: the message fails for good and
/// nothing more is queued for that number, until a sign-in code comes back from it.
@Suite("Delivery: numbers that cannot take SMS", .serialized)
struct UnreachableNumberTests {
    static let sid = "AC" + String(repeating: "3", count: 32), token = "unreachable-auth-token"
    /// The stand-in answers this number 400 21610 ("unsubscribed recipient").
    static let stopped = "+15559990001"

    @Test("an opted-out responder: one attempt, then no SMS is queued for the number; push still goes", arguments: Engine.allCases)
    func optedOutIsNotRetried(engine: Engine) async throws {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        defer { twilio.stop() }
        let configuration = TwilioConfiguration(
            accountSID: Self.sid, authToken: Self.token, sender: .number("+15005550006"),
            baseURL: try #require(URL(string: "http://127.0.0.1:\(twilio.port)")))
        let test = try await TestDatabases.backend(engine) {
            $0.deliveryChannels = DeliveryChannels(sms: TwilioChannelSender(client: TwilioClient(configuration: configuration)))
        }
        let ann = try await DeliveryStoryTests.person(test, "+15550008201", "Ann")
        let bob = try await DeliveryStoryTests.person(test, Self.stopped, "Bob")
        _ = try await test.backend.contacts.addContact(caller: ann, qrCodeID: try await test.backend.contacts.qrCode(caller: bob).id, roles: .responder)
        try await test.backend.notifications.registerPushToken(caller: bob, token: "bob-phone")

        _ = try await test.backend.alerts.trigger(caller: ann)
        _ = try await twilio.records(atLeast: 1) { DeliveryStoryTests.fields($0)["To"] == Self.stopped }
        let first = try await test.backend.database.query("SELECT status, attempts FROM deliveries WHERE address = \(Self.stopped)")
        #expect(try first.map { "\(try $0.string("status"))/\(try $0.int("attempts"))" } == ["failed/1"])
        // The ledger's worker finds nothing to retry.
        test.clock.advance(by: 3600)
        _ = await test.backend.deliveries.sendDue()

        _ = try await test.backend.alerts.cancel(caller: ann)
        _ = try await test.backend.alerts.trigger(caller: ann)
        #expect(try await test.backend.database.query("SELECT id FROM deliveries WHERE address = \(Self.stopped)").count == 1)
        #expect(try await twilio.records(atLeast: 0) { DeliveryStoryTests.fields($0)["To"] == Self.stopped }.count == 1)
        let pushes = try await test.backend.database.query("SELECT id FROM deliveries WHERE address = 'bob-phone'")
        #expect(pushes.count == 3, "the SOS, its all-clear and the second SOS still reach Bob's phone")
    }
}
