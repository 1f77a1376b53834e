import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

@testable import LifeSignalServer

/// Texts that carry a check-in PIN, over a real socket on both engines: the PIN is needed once
/// set, a wrong one is refused and counted, and the duress PIN's answer is the PIN's, word for
/// word, while the responders are warned.
@Suite("Texts with a check-in PIN")
struct TwilioMessagePINTests {
    @Test("OK with the PIN checks in; without it or with a wrong one it does not, and guesses are limited", arguments: Engine.allCases)
    func pin(engine: Engine) async throws {
        let (test, server) = try await TwilioMessageTests.start(engine)
        defer { Task { await server.stop() } }
        let ann = Caller.user(try await test.signIn(TwilioMessageTests.phone).user.id)
        _ = try await test.backend.checkInPINs.set(caller: ann, pin: "4821", duressPIN: nil)
        let bare = try await TwilioMessageTests.text(server, from: TwilioMessageTests.phone, "OK")
        #expect(TwilioMessageTests.message(bare) == SMSReplies.pinNeeded)
        let wrong = try await TwilioMessageTests.text(server, from: TwilioMessageTests.phone, "OK 1234")
        #expect(TwilioMessageTests.message(wrong) == SMSReplies.wrongPIN)
        #expect(try await test.count("check_ins") == 0)
        let right = try await TwilioMessageTests.text(server, from: TwilioMessageTests.phone, "ok 4821")
        #expect(TwilioMessageTests.message(right)?.hasPrefix("LifeSignal: checked in.") == true, "\(right.text)")
        #expect(try await test.count("check_ins") == 1)

        test.clock.advance(by: 600)
        for guess in 0..<CheckInPINs.guessLimit {
            _ = try await TwilioMessageTests.text(server, from: TwilioMessageTests.phone, "OK \(5000 + guess)")
        }
        let locked = try await TwilioMessageTests.text(server, from: TwilioMessageTests.phone, "OK 4821")
        #expect(TwilioMessageTests.message(locked) == SMSReplies.pinLocked)
        #expect(try await test.count("check_ins") == 1)
    }

    @Test("the duress PIN by text gets the PIN's answer, word for word; only the responder hears, urgently", arguments: Engine.allCases)
    func duress(engine: Engine) async throws {
        let (test, server) = try await TwilioMessageTests.start(engine)
        defer { Task { await server.stop() } }
        let ann = Caller.user(try await test.signIn(TwilioMessageTests.phone).user.id)
        let cat = Caller.user(try await test.signIn("+15550007003").user.id)
        let bob = Caller.user(try await test.signIn("+15550007002").user.id)
        let bobsCode = try await test.backend.contacts.qrCode(caller: bob).id
        _ = try await test.backend.contacts.addContact(caller: cat, qrCodeID: bobsCode, roles: .responder)
        for person in [ann, cat] { _ = try await test.backend.checkInPINs.set(caller: person, pin: "4821", duressPIN: "7350") }
        let normal = try await TwilioMessageTests.text(server, from: TwilioMessageTests.phone, "OK 4821")
        let duress = try await TwilioMessageTests.text(server, from: "+15550007003", "OK 7350")
        #expect(normal.status == duress.status && normal.text == duress.text, "\(normal.text) / \(duress.text)")
        #expect(normal.headers["content-type"] == duress.headers["content-type"])
        #expect(try await test.count("check_ins") == 2)
        let catHeard = try await test.backend.notifications.notifications(caller: cat, limit: 100).filter { $0.type.category == .alerts }
        #expect(catHeard.isEmpty)
        let bobHeard = try await test.backend.notifications.notifications(caller: bob, limit: 100).filter { $0.type == .alertActivatedReceived }
        #expect(bobHeard.count == 1 && bobHeard.first?.title.hasPrefix("URGENT: ") == true, "\(bobHeard.map(\.title))")
    }
}
