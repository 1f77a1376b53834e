import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("Pausing check-ins, SOS locations, escalation settings")
struct PauseAndLocationTests {
    @Test("paused: no reminder and no escalation; responders told until when; the time passing starts a fresh interval", arguments: Engine.allCases)
    func pause(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        let until = test.clock.now.addingTimeInterval(3 * 24 * 3600)
        let reply = try await test.call("pause-check-ins", ann, ["until": Timestamp.format(until)])
        #expect(reply["pausedUntil"] as? String == Timestamp.format(until))
        #expect(reply["nextCheckInTime"] as? String == Timestamp.format(until.addingTimeInterval(24 * 3600)))
        let told = try #require(try await test.notifications(bob, .checkInsPaused).first)
        #expect(told.title == "Ann Tester paused check-ins" && told.body.contains("until "))
        for _ in 0..<6 {  // past the old deadline and its reminder, up to the end of the pause
            test.clock.advance(by: 12 * 3600)
            let report = try await test.sweep()
            #expect(report["reminders"] as? Int == 0 && report["escalations"] as? Int == 0 && report["graceNotices"] as? Int == 0)
        }
        #expect(try await test.heard(bob).count == 1)
        #expect(try await test.contact(ann.userID, of: bob)?.isNonResponsive == false)
        // The pause ended: a fresh interval, reminded 30 minutes before its end, escalated at it.
        test.clock.advance(by: 24 * 3600 - 1800)
        #expect(try await test.sweep()["reminders"] as? Int == 1)
        test.clock.advance(by: 1800)
        #expect(try await test.sweep()["escalations"] as? Int == 1)
        #expect(try await test.notifications(bob, .nonResponsiveDependent).count == 1)
    }

    @Test(
        "resuming early starts a fresh interval and tells responders; pausing ends an escalated miss with the all-clear; bad times refused",
        arguments: Engine.allCases)
    func resumeAndRefusals(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        await #expect(throws: DomainError.failedPrecondition("Check-ins are not paused")) { try await test.call("resume-check-ins", ann) }
        for until in [test.clock.now, test.clock.now.addingTimeInterval(30 * 24 * 3600 + 1)] {
            await #expect(throws: DomainError.invalidArgument("until must be after now and at most 30 days ahead")) {
                try await test.call("pause-check-ins", ann, ["until": Timestamp.format(until)])
            }
        }
        await #expect(throws: DomainError.invalidArgument("until must be an ISO 8601 time, not \"soon\"")) {
            try await test.call("pause-check-ins", ann, ["until": "soon"])
        }
        #expect(try await test.heardNothing(bob))
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600)
        _ = try await test.sweep()
        #expect(try await test.backend.alerts.activeAlert(caller: ann)?.kind == .missedCheckIn)
        let until = test.clock.now.addingTimeInterval(3600)
        _ = try await test.call("pause-check-ins", ann, ["until": Timestamp.format(until)])
        // A new interval while paused runs from the end of the pause.
        let profile = try await test.backend.profiles.updateCheckInSettings(caller: ann, interval: try CheckInInterval(seconds: 7200), reminderLead: nil)
        #expect(profile.deadline == until.addingTimeInterval(7200))
        #expect(try await test.received(bob, .alertCancelledReceived) == ["Ann Tester ended the missed check-in alert."])
        #expect(try await test.backend.alerts.history(caller: ann).first?.resolution == .cancelled)
        test.clock.advance(by: 600)
        let resumed = try await test.call("resume-check-ins", ann)
        #expect(resumed["pausedUntil"] == nil)
        #expect(resumed["nextCheckInTime"] as? String == Timestamp.format(test.clock.now.addingTimeInterval(7200)))
        #expect(try await test.notifications(bob, .checkInsUnpaused).first?.title == "Ann Tester resumed check-ins")
    }

    @Test(
        "an SOS with a location: owner and responders read it, strangers nothing; without one none; bad ones refused with nothing written",
        arguments: Engine.allCases)
    func location(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let eve = try await test.person("+15550000009", "Eve")
        try await test.link(responder: bob, dependent: ann)
        let bad: [([String: any Sendable], String)] = [
            (["latitude": 90.5, "longitude": 0], "location.latitude must be from -90 to 90, not 90.5"),
            (["latitude": 0, "longitude": -180.5], "location.longitude must be from -180 to 180, not -180.5"),
            (["latitude": 0, "longitude": 0, "accuracy": 100_001], "location.accuracy must be from 0 to 100000 metres, not 100001.0"),
            (["latitude": 0, "longitude": 0, "accuracy": -1], "location.accuracy must be from 0 to 100000 metres, not -1.0"),
            (["latitude": 0, "longitude": 0, "time": "yesterday"], "location.time must be an ISO 8601 time, not \"yesterday\""),
            (["latitude": 0, "longitude": 0, "time": Timestamp.format(test.clock.now.addingTimeInterval(3600))], "location.time must not be in the future"),
        ]
        for (location, message) in bad {
            await #expect(throws: DomainError.invalidArgument(message)) { try await test.call("trigger-alert", ann, ["location": location]) }
        }
        await #expect(throws: BackendFunctions.Failure.self) {
            try await test.call("trigger-alert", ann, ["location": ["latitude": "north"] as [String: any Sendable]])
        }
        #expect(try await test.count("alerts") == 0)
        #expect(try await test.heardNothing(bob))

        let fix = Timestamp.format(test.clock.now.addingTimeInterval(-30))
        let shared: [String: any Sendable] = ["latitude": 51.5007, "longitude": -0.1246, "accuracy": 20, "time": fix]
        let reply = try await test.call("trigger-alert", ann, ["location": shared])
        #expect(reply["status"] as? String == "active")
        // The reply says what was raised and with which place, as get-active-alert would.
        #expect(reply["kind"] as? String == "sos")
        let answered = try #require(reply["location"] as? [String: Any])
        #expect(answered["latitude"] as? Double == 51.5007 && answered["longitude"] as? Double == -0.1246 && answered["time"] as? String == fix)
        // The message says a place was shared, not where: it may leave by SMS, email or push;
        // the place is for the app and the responder page (docs/security.md, "What leaves the server").
        #expect(
            try await test.received(bob, .alertActivatedReceived) == ["Ann Tester raised an emergency alert. They shared where they are: the alert shows it."])
        for reader in [(ann, [String: any Sendable]()), (bob, ["userId": ann.userID.description])] {
            let seen = try await test.call("get-active-alert", reader.0, reader.1)
            let location = try #require(seen["location"] as? [String: Any])
            #expect(location["latitude"] as? Double == 51.5007 && location["longitude"] as? Double == -0.1246)
            #expect(location["accuracy"] as? Double == 20 && location["time"] as? String == fix && seen["kind"] as? String == "sos")
        }
        await #expect(throws: DomainError.forbidden("Only a responder of this person may see their alerts")) {
            try await test.call("get-active-alert", eve, ["userId": ann.userID.description])
        }
        _ = try await test.backend.alerts.cancel(caller: ann)
        let plain = try await test.call("trigger-alert", ann)
        #expect(plain["status"] as? String == "active")
        #expect(try await test.call("get-active-alert", ann)["location"] == nil)
    }

    @Test("an SOS raised during a missed check-in becomes that incident and tells every tier", arguments: Engine.allCases)
    func sosDuringMissedCheckIn(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        try await test.setTier(cat, 2, for: ann)
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600)
        _ = try await test.sweep()
        let missed = try #require(try await test.backend.alerts.activeAlert(caller: ann))
        #expect(missed.kind == .missedCheckIn && missed.tier == 1)
        test.clock.advance(by: 60)
        let sos = try await test.backend.alerts.trigger(caller: ann)
        #expect(sos.id == missed.id && sos.kind == .sos && sos.tier == 2 && sos.activatedAt == test.clock.now && sos.deadline == missed.deadline)
        #expect(try await test.notifications(cat, .alertActivatedReceived).count == 1)
        #expect(try await test.notifications(bob, .alertActivatedReceived).count == 1)
        await #expect(throws: DomainError.failedPrecondition("An alert is already active")) { try await test.backend.alerts.trigger(caller: ann) }
        // A check-in does not end an SOS; cancelling does, and both hear it once.
        _ = try await test.call("check-in", ann)
        #expect(try await test.backend.alerts.activeAlert(caller: ann)?.id == sos.id)
        _ = try await test.backend.alerts.cancel(caller: ann)
        #expect(try await test.notifications(cat, .alertCancelledReceived).count == 1)
        #expect(try await test.notifications(bob, .alertCancelledReceived).count == 1)
        #expect(try await test.notifications(bob, .checkInResumed).isEmpty)
    }

    @Test("settings and tiers out of range are refused by field, nothing changed; a tier only for one's own responder", arguments: Engine.allCases)
    func settingsRanges(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        let refusals: [([String: any Sendable], String)] = [
            (["graceSeconds": -1], "graceSeconds must be from 0 to 86400 (24 hours), not -1"),
            (["graceSeconds": 86401], "graceSeconds must be from 0 to 86400 (24 hours), not 86401"),
            (["tierDelaySeconds": 299], "tierDelaySeconds must be from 300 to 86400 (5 minutes to 24 hours), not 299"),
            (["repeatSeconds": 899], "repeatSeconds must be 0 (no repeats) or from 900 to 86400 (15 minutes to 24 hours), not 899"),
            (["repeatSeconds": 86401, "graceSeconds": 60], "repeatSeconds must be 0 (no repeats) or from 900 to 86400 (15 minutes to 24 hours), not 86401"),
        ]
        for (body, message) in refusals {
            await #expect(throws: DomainError.invalidArgument(message)) { try await test.call("update-escalation-settings", ann, body) }
        }
        let unchanged = try await test.call("get-escalation-settings", ann)
        #expect(unchanged["graceSeconds"] as? Int == 0 && unchanged["tierDelaySeconds"] as? Int == 7200 && unchanged["repeatSeconds"] as? Int == 0)
        for tier in [0, 10] {
            await #expect(throws: DomainError.invalidArgument("tier must be from 1 to 9, not \(tier)")) { try await test.setTier(bob, tier, for: ann) }
        }
        // Ann is Bob's dependent, not his responder: he cannot give her a tier.
        await #expect(throws: DomainError.notFound("Responder \(ann.userID)")) { try await test.setTier(ann, 2, for: bob) }
        let set = try await test.call("update-escalation-settings", ann, ["graceSeconds": 900, "repeatSeconds": 3600])
        #expect(set["graceSeconds"] as? Int == 900 && set["repeatSeconds"] as? Int == 3600)
        let off = try await test.call("update-escalation-settings", ann, ["repeatSeconds": 0])
        #expect(off["repeatSeconds"] as? Int == 0 && off["graceSeconds"] as? Int == 900)
    }

    @Test("sweepers racing tell each tier and each repeat exactly once", arguments: Engine.allCases)
    func racingTiers(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        var people: [(Caller, Caller, Caller)] = []
        for index in 0..<12 {
            let number = String(format: "%04d", index)
            let person = Caller.user(try await test.signIn("+1555100\(number)").user.id)
            let first = Caller.user(try await test.signIn("+1555200\(number)").user.id)
            let second = Caller.user(try await test.signIn("+1555300\(number)").user.id)
            try await test.link(responder: first, dependent: person)
            try await test.link(responder: second, dependent: person)
            try await test.setTier(second, 2, for: person)
            _ = try await test.call("update-escalation-settings", person, ["tierDelaySeconds": 3600, "repeatSeconds": 1800])
            _ = try await test.backend.checkIns.checkIn(caller: person)
            people.append((person, first, second))
        }
        func race() async throws -> [SweepReport] {
            try await withThrowingTaskGroup(of: SweepReport.self) { group in
                for _ in 0..<4 { group.addTask { try await test.backend.sweep.run(caller: .service, batchSize: 2) } }
                return try await group.reduce(into: [SweepReport]()) { $0.append($1) }
            }
        }
        test.clock.advance(by: 24 * 3600)
        #expect(try await race().map(\.escalations).reduce(0, +) == people.count)
        test.clock.advance(by: 1800)  // tier 1 repeated
        #expect(try await race().map(\.repeats).reduce(0, +) == people.count)
        test.clock.advance(by: 1800)  // tier 2 told; its repeats start from now
        var reports = try await race()
        #expect(reports.map(\.tiersAdvanced).reduce(0, +) == people.count && reports.map(\.repeats).reduce(0, +) == 0)
        test.clock.advance(by: 1800)  // tier 2 repeated
        reports = try await race()
        #expect(reports.map(\.repeats).reduce(0, +) == people.count && reports.map(\.tiersAdvanced).reduce(0, +) == 0)
        for (person, first, second) in people {
            // Tier 2 is the last: its repeat reaches everyone told, tier 1 too.
            #expect(try await test.notifications(first, .nonResponsiveDependent).count == 3)
            #expect(try await test.notifications(second, .nonResponsiveDependent).count == 2)
            #expect(try await test.notifications(person, .nonResponsiveSelf).count == 3)
        }
        #expect(try await test.count("alerts") == people.count)
        #expect(try await test.count("alert_recipients") == 2 * people.count)
    }
}
