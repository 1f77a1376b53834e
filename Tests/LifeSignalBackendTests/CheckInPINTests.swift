import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Check-in PIN and duress PIN")
struct CheckInPINTests {
    @Test("with a PIN set, a check-in needs it: none or a wrong one is refused and records nothing", arguments: Engine.allCases)
    func pinNeeded(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let set = try await test.call("set-check-in-pins", ann, ["pin": "4821"])
        #expect(set["hasPin"] as? Bool == true && set["hasDuressPin"] as? Bool == false)
        await #expect(throws: DomainError.invalidArgument("This check-in needs your PIN")) {
            try await test.backend.checkIns.checkIn(caller: ann)
        }
        await #expect(throws: DomainError.forbidden("That is not your check-in PIN")) {
            try await test.backend.checkIns.checkIn(caller: ann, pin: "1111")
        }
        await #expect(throws: DomainError.forbidden("That is not your check-in PIN")) {
            try await test.backend.checkIns.checkIn(caller: ann, pin: "1111", idempotencyKey: "offline-key-1")
        }
        #expect(try await test.count("check_ins") == 0)
        let reply = try await test.call("check-in", ann, ["pin": "4821"])
        #expect(reply["success"] as? Bool == true)
        #expect(try await test.count("check_ins") == 1)

        // Stored hashed with the password hasher, never as typed; no API role reaches the table.
        let stored = try #require(try await test.backend.database.query("SELECT pin_hash, duress_hash FROM lifesignal_check_in_pins").first)
        let hash = try stored.string("pin_hash")
        #expect(hash.hasPrefix("pbkdf2-sha256$") && !hash.contains("4821"))
        #expect(Schema.policy(for: "lifesignal_check_in_pins") == nil)

        // Removing the PIN: check-ins no longer ask for it.
        let removed = try await test.call("set-check-in-pins", ann, [:])
        #expect(removed["hasPin"] as? Bool == false)
        test.clock.advance(by: 600)
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        #expect(try await test.count("lifesignal_check_in_pins") == 0)
    }

    @Test("PINs are 4 to 8 digits; a duress PIN needs a PIN and must differ from it", arguments: Engine.allCases)
    func pinRules(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        for (pin, duress, message) in [
            ("123", nil, "A check-in PIN is 4 to 8 digits"), ("123456789", nil, "A check-in PIN is 4 to 8 digits"),
            ("12a4", nil, "A check-in PIN is 4 to 8 digits"), ("4821", "4821", "The duress PIN must differ from the check-in PIN"),
            ("4821", "12", "A check-in PIN is 4 to 8 digits"),
        ] as [(String, String?, String)] {
            await #expect(throws: DomainError.invalidArgument(message)) {
                try await test.backend.checkInPINs.set(caller: ann, pin: pin, duressPIN: duress)
            }
        }
        await #expect(throws: DomainError.invalidArgument("A duress PIN needs a check-in PIN beside it")) {
            try await test.backend.checkInPINs.set(caller: ann, pin: nil, duressPIN: "1234")
        }
        await #expect(throws: DomainError.unauthenticated) { try await test.backend.checkInPINs.set(caller: .anonymous, pin: "4821", duressPIN: nil) }
        #expect(try await test.count("lifesignal_check_in_pins") == 0)
        #expect(try await test.backend.checkInPINs.settings(caller: ann) == CheckInPINSettings())
    }

    @Test("wrong PINs are counted per person: past the limit even the right one waits for the hour", arguments: Engine.allCases)
    func guessLimit(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        _ = try await test.backend.checkInPINs.set(caller: ann, pin: "4821", duressPIN: "9999")
        _ = try await test.backend.checkInPINs.set(caller: bob, pin: "4821", duressPIN: nil)
        for guess in 0..<CheckInPINs.guessLimit {
            await #expect(throws: DomainError.forbidden("That is not your check-in PIN")) {
                try await test.backend.checkIns.checkIn(caller: ann, pin: String(format: "%04d", 1000 + guess))
            }
        }
        await #expect(throws: DomainError.rateLimited(retryAfter: 3600)) { try await test.backend.checkIns.checkIn(caller: ann, pin: "4821") }
        // Another person's guesses are their own.
        _ = try await test.backend.checkIns.checkIn(caller: bob, pin: "4821")
        #expect(try await test.count("check_ins") == 1)
        test.clock.advance(by: CheckInPINs.guessWindow)
        _ = try await test.backend.checkIns.checkIn(caller: ann, pin: "4821")
        #expect(try await test.count("check_ins") == 2)
    }

    @Test(
        "the duress PIN answers exactly as the PIN does, costs the same hashing, and only the responders hear: urgently",
        arguments: Engine.allCases)
    func duressLooksNormal(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        let dan = try await test.person("+15550000004", "Dan")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: dan, dependent: cat)
        for person in [ann, cat] { _ = try await test.backend.checkInPINs.set(caller: person, pin: "4821", duressPIN: "7350") }
        let hashing = test.backend.auth.passwords.hashing

        var replies: [Data] = []
        var hashes: [Int] = []
        for (person, pin) in [(ann, "4821"), (cat, "7350")] {
            let before = hashing.statistics.completed
            replies.append(try await test.backend.functions.call("check-in", caller: person, body: Data(#"{"pin":"\#(pin)"}"#.utf8)))
            hashes.append(hashing.statistics.completed - before)
        }
        #expect(replies[0] == replies[1] && !replies[0].isEmpty, "the two replies are the same, byte for byte")
        #expect(hashes == [2, 2], "both PINs are hashed on every check-in")
        // What each person can read is the same: a manual check-in, no alert, nothing heard.
        for person in [ann, cat] {
            let rows = try await test.backend.database.query("SELECT source FROM check_ins WHERE user_id = \(SQLValue(person.userID.rawValue))")
            #expect(try rows.map { try $0.string("source") } == ["manual"])
            #expect(try await test.backend.alerts.activeAlert(caller: person) == nil)
            #expect(try await test.heard(person).isEmpty)
        }
        #expect(try await test.count("alerts") == 0)
        #expect(try await test.heardNothing(bob))
        let warning = try #require(try await test.heard(dan).first)
        #expect(warning.type == .alertActivatedReceived && warning.contactID == cat.userID)
        #expect(warning.title == "URGENT: Cat Tester may be in danger")
        #expect(warning.body.contains("duress PIN") && warning.body.contains("do not reply by text"))
    }

    @Test(
        "a duress check-in during a missed check-in ends it as any check-in would, but responders hear the warning, not the all-clear",
        arguments: Engine.allCases)
    func duressDuringMissedCheckIn(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        _ = try await test.backend.checkInPINs.set(caller: ann, pin: "4821", duressPIN: "7350")
        _ = try await test.backend.checkIns.checkIn(caller: ann, pin: "4821")
        test.clock.advance(by: 24 * 3600 + 1)
        _ = try await test.sweep()
        #expect(try await test.received(bob, .nonResponsiveDependent) == ["Ann Tester's check-in has expired."])
        #expect(try await test.backend.alerts.activeAlert(caller: ann) != nil)

        _ = try await test.backend.checkIns.checkIn(caller: ann, pin: "7350")
        #expect(try await test.backend.alerts.activeAlert(caller: ann) == nil, "the person sees the incident end, as after any check-in")
        #expect(try await test.received(bob, .checkInResumed).isEmpty, "no all-clear")
        let warning = try #require(try await test.notifications(bob, .alertActivatedReceived).first)
        #expect(warning.title == "URGENT: Ann Tester may be in danger")
    }
}
