import Foundation
import LifeSignalBackend
import LifeSignalDelivery
import LifeSignalDomain
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// Phone calls against the Twilio stand-in's Calls API and its telephone, which fetches the
/// server's TwiML over real sockets, signed, and follows it as a phone would: a person who
/// presses keys, a voicemail, a phone nobody answers. Both engines.
@Suite("Delivery: phone calls", .serialized)
struct PhoneCallTests {
    static let sid = "AC" + String(repeating: "7", count: 32), token = "calls-auth-token"

    /// A server whose calls go through the stand-in, and the stand-in.
    struct Fixture {
        var test: TestBackend
        var server: TestServer
        var twilio: StandInProcess
        var clock: ManualClock

        func stop() async {
            await server.stop()
            twilio.stop()
        }

        /// Sets how the stand-in's phones behave (`answer`, `presses`).
        func phones(_ scripts: [String: [String: any Sendable]]) async throws {
            let body = try JSONSerialization.data(withJSONObject: scripts)
            let reply = try await NIOHTTPTestClient.send("POST", "/control/phones", port: twilio.port, body: body)
            guard reply.status == 204 else { throw TestEnvironmentError(description: "control/phones: \(reply.status)") }
        }

        /// The stand-in's record of the call to `number` once it ended.
        func ended(_ number: String) async throws -> [String: Any] {
            try await twilio.records(atLeast: 1) { $0["ended"] != nil && ($0["to"] as? String) == number }[0]
        }

        /// What the phone at `number` heard, in order.
        func heard(_ number: String) -> [String] {
            twilio.records.filter { ($0["to"] as? String) == number }.compactMap { $0["heard"] as? String }
        }

        func person(_ phone: String, _ name: String, calls: ChannelChoice) async throws -> Caller {
            let caller = try await DeliveryStoryTests.person(test, phone, name)
            _ = try await test.backend.deliveries.updatePreferences(caller: caller, voice: calls)
            return caller
        }
    }

    static func start(_ engine: Engine, sms: RecordingChannelSender? = nil) async throws -> Fixture {
        let twilio = try await StandInProcess.start("twilio_standin.py", arguments: [Self.sid, Self.token])
        let port = try DeliveryStoryTests.freePort()
        let base = try #require(URL(string: "http://127.0.0.1:\(port)"))
        let client = TwilioClient(
            configuration: TwilioConfiguration(
                accountSID: Self.sid, authToken: Self.token, sender: .number("+15005550006"),
                baseURL: try #require(URL(string: "http://127.0.0.1:\(twilio.port)"))))
        let clock = ManualClock()
        let test = try await TestDatabases.backend(engine, clock: clock) { configuration in
            configuration.deliveryChannels = DeliveryChannels(sms: sms, voice: TwilioCallSender(client: client, from: "+15005550006", publicURL: base))
        }
        let server = try await TestServer.start(test.backend) {
            $0.port = port
            $0.publicURL = base
            $0.twilioVoice = TwilioVoiceWebhook(authToken: Self.token, publicURL: base)
        }
        return Fixture(test: test, server: server, twilio: twilio, clock: clock)
    }

    @Test("a missed check-in calls the responders: 1 is I'm on it; a voicemail and an unanswered phone never count", arguments: Engine.allCases)
    func respondersCalled(engine: Engine) async throws {
        let fixture = try await Self.start(engine)
        defer { Task { await fixture.stop() } }
        let backend = fixture.test.backend
        let ann = try await fixture.person("+15550008001", "Ann", calls: .off)
        let bob = try await fixture.person("+15550008002", "Bob", calls: .urgent)
        let cat = try await fixture.person("+15550008003", "Cat", calls: .urgent)
        let dan = try await fixture.person("+15550008004", "Dan", calls: .urgent)
        let eve = try await fixture.person("+15550008005", "Eve", calls: .urgent)
        for responder in [bob, cat, dan, eve] {
            _ = try await backend.contacts.addContact(caller: ann, qrCodeID: try await backend.contacts.qrCode(caller: responder).id, roles: .responder)
        }
        try await fixture.phones([
            "+15550008002": ["answer": "human", "presses": ["", "1"]], "+15550008003": ["answer": "machine"],
            "+15550008004": ["answer": "no-answer"], "+15550008005": ["answer": "human", "presses": ["hangup"]],
        ])
        _ = try await backend.checkIns.checkIn(caller: ann)
        fixture.clock.advance(by: 24 * 3600 + 1)
        _ = try await backend.sweep.run(caller: .service)

        let bobCall = try await fixture.ended("+15550008002")
        #expect(bobCall["ended"] as? String == "completed" && bobCall["answered_by"] as? String == "human")
        let heard = fixture.heard("+15550008002")
        #expect(heard.first?.hasPrefix("This is LifeSignal with an urgent message. Ann Tester") == true, "\(heard)")
        #expect(heard.contains("Press 1 if you will check on them."), "the menu again after silence: \(heard)")
        #expect(heard.last?.hasPrefix("Thank you. They have been told you are on it.") == true, "\(heard)")
        let alert = try #require(try await backend.alerts.activeAlert(caller: bob, of: ann.userID))
        #expect(alert.acknowledgedBy == bob.userID, "pressing 1 is I'm on it")

        let catCall = try await fixture.ended("+15550008003")
        #expect(catCall["answered_by"] as? String == "machine_start")
        #expect(fixture.heard("+15550008003").isEmpty, "a voicemail hears nothing")
        _ = try await fixture.ended("+15550008004")
        // The ledger: Bob's call counts; the machine's and the unanswered one do not.
        let rows = try await Self.callRows(backend)
        #expect(rows["+15550008002"]?.status == "delivered")
        #expect(rows["+15550008003"]?.status == "failed" && rows["+15550008003"]?.error == "a machine answered the call")
        #expect(rows["+15550008004"]?.status == "failed" && rows["+15550008004"]?.error == "the call ended: no-answer")
        _ = try await fixture.ended("+15550008005")
        let hungUp = try await Self.callRows(backend)["+15550008005"]
        #expect(hungUp?.status == "failed" && hungUp?.error == "the call was answered but no key was pressed", "a hang-up is no answer")
        // Every request the phone made carried a valid signature: none was refused.
        #expect(fixture.twilio.records.filter { $0["fetch"] != nil }.allSatisfy { ($0["status"] as? Int) == 200 })
    }

    @Test("the person is called first: 1 and the PIN check them in; the duress PIN sounds the same and warns the responder", arguments: Engine.allCases)
    func personCalledFirst(engine: Engine) async throws {
        let fixture = try await Self.start(engine)
        defer { Task { await fixture.stop() } }
        let backend = fixture.test.backend
        let ann = try await fixture.person("+15550008011", "Ann", calls: .urgent)
        let cat = try await fixture.person("+15550008013", "Cat", calls: .urgent)
        let bob = try await fixture.person("+15550008012", "Bob", calls: .off)
        _ = try await backend.contacts.addContact(caller: cat, qrCodeID: try await backend.contacts.qrCode(caller: bob).id, roles: .responder)
        for person in [ann, cat] {
            _ = try await backend.checkInPINs.set(caller: person, pin: "4821", duressPIN: "7350")
            _ = try await backend.checkIns.updateEscalation(caller: person, graceSeconds: 900, tierDelaySeconds: nil, repeatSeconds: nil)
            _ = try await backend.checkIns.checkIn(caller: person, pin: "4821")
        }
        try await fixture.phones([
            "+15550008011": ["answer": "human", "presses": ["1", "4821#"]], "+15550008013": ["answer": "human", "presses": ["1", "7350#"]],
        ])
        fixture.clock.advance(by: 24 * 3600 + 1)
        _ = try await backend.sweep.run(caller: .service)

        _ = try await fixture.ended("+15550008011")
        _ = try await fixture.ended("+15550008013")
        let annHeard = fixture.heard("+15550008011")
        #expect(annHeard.first == "Hello Ann. This is LifeSignal. Your check-in is overdue. Press 1 if you are OK.", "\(annHeard)")
        #expect(annHeard.last == "Thank you. You are checked in. Goodbye.", "\(annHeard)")
        #expect(fixture.heard("+15550008013") == annHeard.map { $0.replacingOccurrences(of: "Ann", with: "Cat") }, "the duress PIN sounds the same")
        #expect(try await fixture.test.count("check_ins") == 4)
        // Checked in in time: nobody is told of a missed check-in, but Cat's responder is warned.
        fixture.clock.advance(by: 900)
        _ = try await backend.sweep.run(caller: .service)
        #expect(try await backend.alerts.activeAlert(caller: ann) == nil)
        #expect(try await backend.alerts.activeAlert(caller: cat) == nil)
        let warned = try await backend.notifications.notifications(caller: bob, limit: 10).filter { $0.type == .alertActivatedReceived }
        #expect(warned.map(\.title) == ["URGENT: Cat Tester may be in danger"])
        let rows = try await Self.callRows(backend)
        #expect(rows["+15550008011"]?.status == "delivered" && rows["+15550008013"]?.status == "delivered")
    }

    @Test("a test alert by call: pressing 1 confirms it, and the person sees it was confirmed on a call", arguments: Engine.allCases)
    func testAlertByCall(engine: Engine) async throws {
        let fixture = try await Self.start(engine)
        defer { Task { await fixture.stop() } }
        let backend = fixture.test.backend
        let ann = try await fixture.person("+15550008021", "Ann", calls: .off)
        let bob = try await fixture.person("+15550008022", "Bob", calls: .urgent)
        _ = try await backend.contacts.addContact(caller: ann, qrCodeID: try await backend.contacts.qrCode(caller: bob).id, roles: .responder)
        try await fixture.phones(["+15550008022": ["answer": "human", "presses": ["1"]]])
        _ = try await backend.testAlerts.send(caller: ann)
        _ = try await fixture.ended("+15550008022")
        let heard = fixture.heard("+15550008022")
        #expect(heard.first?.hasPrefix("This is a test from LifeSignal. Ann Tester is testing LifeSignal: nothing is wrong.") == true, "\(heard)")
        #expect(heard.last == "Thank you. Ann Tester will see that you can be reached by phone. Goodbye.", "\(heard)")
        let report = try #require(try await backend.testAlerts.latest(caller: ann))
        #expect(report.responders.first?.confirmedBy == "call")
        #expect(report.responders.first?.attempts.map(\.channel) == [.voice])
    }

    @Test("a person calls the number to check in: 1, then the PIN; a stranger's call checks nobody in", arguments: Engine.allCases)
    func callingIn(engine: Engine) async throws {
        let fixture = try await Self.start(engine)
        defer { Task { await fixture.stop() } }
        let backend = fixture.test.backend
        let ann = try await fixture.person("+15550008031", "Ann", calls: .off)
        _ = try await backend.checkInPINs.set(caller: ann, pin: "4821", duressPIN: nil)
        let base = "http://127.0.0.1:\(fixture.server.port)/hooks/twilio/voice-in"
        /// Twilio's request for an incoming call, signed as Twilio signs it; the TwiML's text.
        func twilio(_ path: String, _ fields: [(String, String)]) async throws -> String {
            var allowed = CharacterSet.alphanumerics
            allowed.insert(charactersIn: "-._~")
            let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
            let signature = TwilioSignature.expected(url: base + path, parameters: fields, authToken: Self.token)
            let reply = try await NIOHTTPTestClient.send(
                "POST", "/hooks/twilio/voice-in" + path, port: fixture.server.port,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature], body: Data(body.utf8))
            #expect(reply.status == 200, "\(path): \(reply.status)")
            return String(decoding: reply.body, as: UTF8.self)
        }
        let call = [("CallSid", "CA" + String(repeating: "1", count: 32)), ("From", "+15550008031"), ("To", "+15005550006")]
        #expect(try await twilio("", call).contains("<Say>Hello Ann. This is LifeSignal. Press 1 to check in.</Say>"))
        #expect(try await twilio("/menu", call + [("Digits", "1")]).contains("Please enter your check-in PIN"))
        #expect(try await twilio("/pin", call + [("Digits", "1111")]).contains("That is not your PIN. You are not checked in."))
        #expect(try await fixture.test.count("check_ins") == 0)
        #expect(try await twilio("/pin", call + [("Digits", "4821")]).contains("Thank you. You are checked in."))
        #expect(try await fixture.test.count("check_ins") == 1)
        let stranger = [("CallSid", "CA" + String(repeating: "2", count: 32)), ("From", "+15550008099"), ("To", "+15005550006")]
        #expect(try await twilio("", stranger).contains(VoiceCalls.strangerWords))
        #expect(try await twilio("/menu", stranger + [("Digits", "1")]).contains(VoiceCalls.strangerWords))
        #expect(try await fixture.test.count("check_ins") == 1)
    }

    @Test("call first, then text: a voicemail taking the call moves the alert on to the text at once", arguments: Engine.allCases)
    func machineMovesOn(engine: Engine) async throws {
        let sms = RecordingChannelSender()
        let fixture = try await Self.start(engine, sms: sms)
        defer { Task { await fixture.stop() } }
        let backend = fixture.test.backend
        let ann = try await fixture.person("+15550008041", "Ann", calls: .off)
        let bob = try await fixture.person("+15550008042", "Bob", calls: .urgent)
        _ = try await backend.contacts.addContact(caller: ann, qrCodeID: try await backend.contacts.qrCode(caller: bob).id, roles: .responder)
        _ = try await backend.deliveries.updatePreferences(caller: bob, fallback: [.voice, .sms])
        try await fixture.phones(["+15550008042": ["answer": "machine"]])
        _ = try await backend.checkIns.checkIn(caller: ann)
        fixture.clock.advance(by: 24 * 3600 + 1)
        _ = try await backend.sweep.run(caller: .service)
        #expect(await sms.messages(to: "+15550008042").isEmpty, "the text waits for the call")
        _ = try await fixture.ended("+15550008042")
        // The machine's call is failed, its text released now, not an hour later.
        for _ in 0..<100 where await sms.messages(to: "+15550008042").isEmpty {
            await backend.deliveries.sendDue()
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await sms.messages(to: "+15550008042").map(\.kind) == [.nonResponsiveDependent])
        #expect(try await Self.callRows(backend)["+15550008042"]?.error == "a machine answered the call")
    }

    @Test("a forged or unsigned voice webhook is 403 and presses nothing")
    func forgeries() async throws {
        let fixture = try await Self.start(.sqlite)
        defer { Task { await fixture.stop() } }
        let path = "/hooks/twilio/voice/\(UUID().uuidString.lowercased())/menu"
        let body = Data("CallSid=CA1&Digits=1".utf8)
        let unsigned = try await NIOHTTPTestClient.send(
            "POST", path, port: fixture.server.port, headers: ["Content-Type": "application/x-www-form-urlencoded"], body: body)
        #expect(unsigned.status == 403)
        let forged = try await NIOHTTPTestClient.send(
            "POST", path, port: fixture.server.port,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": "c2lnbmVkIGJ5IG5vYm9keQ=="], body: body)
        #expect(forged.status == 403)
    }

    static func callRows(_ backend: LifeSignalBackend) async throws -> [String: (status: String, error: String?)] {
        var rows: [String: (status: String, error: String?)] = [:]
        for row in try await backend.database.query("SELECT address, status, last_error FROM deliveries WHERE channel = 'voice'") {
            rows[try row.string("address")] = (try row.string("status"), row.optionalString("last_error"))
        }
        return rows
    }
}
