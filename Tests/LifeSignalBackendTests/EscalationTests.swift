import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

extension TestBackend {
    /// Runs the sweep as the timer does, through `process-check-ins`.
    func sweep() async throws -> [String: Any] {
        try await call("process-check-ins", .service)["report"] as? [String: Any] ?? [:]
    }

    /// Puts `responder` in `tier` for `person`, through `update-contact-tier`.
    func setTier(_ responder: Caller, _ tier: Int, for person: Caller) async throws {
        _ = try await call("update-contact-tier", person, ["contactId": responder.userID.description, "tier": tier])
    }

    /// What `caller` heard about check-ins and incidents (not the "contact added" of linking).
    func heard(_ caller: Caller) async throws -> [NotificationRecord] {
        try await notifications(caller).filter { [.alerts, .checkIns].contains($0.type.category) }
    }

    /// `true` when none of `callers` heard anything about check-ins or incidents.
    func heardNothing(_ callers: Caller...) async throws -> Bool {
        for caller in callers where try await !heard(caller).isEmpty { return false }
        return true
    }

    /// The bodies of what `caller` received of `type`, oldest first.
    func received(_ caller: Caller, _ type: NotificationType) async throws -> [String] {
        try await notifications(caller, type).reversed().map(\.body)
    }
}

@Suite("Tiered escalation")
struct EscalationTests {
    @Test("a grace period: the person is told at the deadline when responders will be told, responders at its end, once", arguments: Engine.allCases)
    func grace(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        let settings = try await test.call("update-escalation-settings", ann, ["graceSeconds": 1800])
        #expect(settings["graceSeconds"] as? Int == 1800 && settings["tierDelaySeconds"] as? Int == 7200 && settings["repeatSeconds"] as? Int == 0)
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600)
        var report = try await test.sweep()
        #expect(report["graceNotices"] as? Int == 1 && report["escalations"] as? Int == 0)
        let told = Timestamp.format(test.clock.now.addingTimeInterval(1800))
        let time = String(told.dropFirst(11).prefix(5))
        #expect(
            try await test.received(ann, .nonResponsiveSelf) == [
                "Your check-in has expired. Your responders will be told at \(time) UTC unless you check in before then."
            ])
        #expect(try await test.heardNothing(bob))
        #expect(try await test.backend.alerts.activeAlert(caller: bob, of: ann.userID) == nil)
        test.clock.advance(by: 1799)
        report = try await test.sweep()
        #expect(report["escalations"] as? Int == 0 && report["notifications"] as? Int == 0)
        test.clock.advance(by: 1)
        report = try await test.sweep()
        #expect(report["escalations"] as? Int == 1 && report["notifications"] as? Int == 2)
        #expect(try await test.received(bob, .nonResponsiveDependent) == ["Ann Tester's check-in has expired."])
        #expect(try await test.notifications(ann, .nonResponsiveSelf).first?.title == "Responders told")
        let incident = try await test.call("get-active-alert", bob, ["userId": ann.userID.description])
        #expect(incident["kind"] as? String == "missed_check_in" && incident["tier"] as? Int == 1)
        #expect(incident["deadline"] as? String == Timestamp.format(test.clock.now.addingTimeInterval(-1800)))
        test.clock.advance(by: 3600)
        #expect(try await test.sweep()["notifications"] as? Int == 0)
        #expect(try await test.heard(bob).count == 1)
    }

    @Test("a check-in during the grace period: nobody was told, nobody hears anything", arguments: Engine.allCases)
    func checkInDuringGrace(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        _ = try await test.call("update-escalation-settings", ann, ["graceSeconds": 3600])
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600)
        _ = try await test.sweep()
        test.clock.advance(by: 600)
        _ = try await test.call("check-in", ann)
        test.clock.advance(by: 3600)
        let report = try await test.sweep()
        #expect(report["escalations"] as? Int == 0 && report["notifications"] as? Int == 0)
        #expect(try await test.heardNothing(bob))
        #expect(try await test.count("alerts") == 0)
    }

    /// Ann with Bob in tier 1, Cat in tier 2 and Dan in tier 3, a tier delay of an hour, and
    /// her deadline just passed and escalated (Bob told).
    private func tiered(_ engine: Engine) async throws -> (TestBackend, Caller, [Caller]) {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        let dan = try await test.person("+15550000004", "Dan")
        for responder in [bob, cat, dan] { try await test.link(responder: responder, dependent: ann) }
        try await test.setTier(cat, 2, for: ann)
        try await test.setTier(dan, 3, for: ann)
        let settings = try await test.call("update-escalation-settings", ann, ["tierDelaySeconds": 3600])
        #expect((settings["responders"] as? [[String: Any]])?.map { $0["tier"] as? Int } == [1, 2, 3])
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600)
        #expect(try await test.sweep()["escalations"] as? Int == 1)
        #expect(try await test.notifications(bob, .nonResponsiveDependent).count == 1)
        return (test, ann, [bob, cat, dan])
    }

    @Test("tiers: the next tier after the delay, not before; all-clear on check-in to exactly everyone told", arguments: Engine.allCases)
    func tiers(engine: Engine) async throws {
        let (test, ann, people) = try await tiered(engine)
        let (bob, cat, dan) = (people[0], people[1], people[2])
        #expect(try await test.heardNothing(cat, dan))
        test.clock.advance(by: 3599)
        #expect(try await test.sweep()["tiersAdvanced"] as? Int == 0)
        #expect(try await test.heardNothing(cat))
        test.clock.advance(by: 1)
        #expect(try await test.sweep()["tiersAdvanced"] as? Int == 1)
        #expect(try await test.received(cat, .nonResponsiveDependent) == ["Ann Tester's check-in has expired and nobody has answered yet."])
        #expect(try await test.heardNothing(dan))
        #expect(try await test.sweep()["tiersAdvanced"] as? Int == 0)
        test.clock.advance(by: 3600)
        #expect(try await test.sweep()["tiersAdvanced"] as? Int == 1)
        #expect(try await test.notifications(dan, .nonResponsiveDependent).count == 1)
        // No fourth tier, nobody answering, no repeats set: everyone told hears it again at
        // once, a tier delay later, and again after that, until someone answers.
        test.clock.advance(by: 3599)
        #expect(try await test.sweep()["notifications"] as? Int == 0)
        test.clock.advance(by: 1)
        var report = try await test.sweep()
        #expect(report["repeats"] as? Int == 1 && report["notifications"] as? Int == 4, "\(report)")
        for responder in [bob, cat, dan] {
            #expect(try await test.received(responder, .nonResponsiveDependent).last == "Ann Tester's check-in is still overdue and nobody has answered yet.")
        }
        test.clock.advance(by: 3600)
        report = try await test.sweep()
        #expect(report["repeats"] as? Int == 1 && report["notifications"] as? Int == 4, "\(report)")
        _ = try await test.call("check-in", ann)
        for responder in [bob, cat, dan] {
            #expect(try await test.received(responder, .checkInResumed) == ["Ann Tester checked in again after missing a check-in."])
        }
        let ended = try #require(try await test.backend.alerts.history(caller: ann).first)
        #expect(ended.resolution == .checkedIn && ended.tier == 3 && ended.kind == .missedCheckIn)
    }

    @Test("tiers stop once the incident is resolved", arguments: Engine.allCases)
    func noTierAfterResolution(engine: Engine) async throws {
        let (test, ann, people) = try await tiered(engine)
        test.clock.advance(by: 600)
        _ = try await test.call("check-in", ann)
        test.clock.advance(by: 6 * 3600)
        let report = try await test.sweep()
        #expect(report["tiersAdvanced"] as? Int == 0)
        #expect(try await test.heardNothing(people[1], people[2]))
        #expect(try await test.received(people[0], .checkInResumed).count == 1)
    }

    @Test("an acknowledgement tells the person and everyone told; the next tier hears \"X is on it\"", arguments: Engine.allCases)
    func acknowledgement(engine: Engine) async throws {
        let (test, ann, people) = try await tiered(engine)
        let (bob, cat, dan) = (people[0], people[1], people[2])
        let fay = try await test.person("+15550000006", "Fay")
        try await test.link(responder: fay, dependent: ann)  // tier 1, but linked after the escalation: not told
        let incident = try #require(try await test.backend.alerts.activeAlert(caller: bob, of: ann.userID))
        test.clock.advance(by: 60)
        _ = try await test.call("respond-to-alert", bob, ["alertId": incident.id.uuidString])
        #expect(try await test.received(ann, .alertAcknowledged) == ["Bob Tester is on it."])
        #expect(try await test.heardNothing(fay, cat))
        let seen = try await test.call("get-active-alert", ann)
        #expect(seen["acknowledgedBy"] as? String == bob.userID.description && seen["acknowledgedAt"] as? String == Timestamp.format(test.clock.now))
        test.clock.advance(by: 3600)
        #expect(try await test.sweep()["tiersAdvanced"] as? Int == 1)
        #expect(try await test.received(cat, .alertAcknowledged) == ["Ann Tester's check-in has expired. Bob Tester is on it."])
        #expect(try await test.notifications(cat, .nonResponsiveDependent).isEmpty)
        // Cat answers too: Ann is told, the others already know someone is on it.
        _ = try await test.call("respond-to-alert", cat, ["alertId": incident.id.uuidString])
        #expect(try await test.received(ann, .alertAcknowledged) == ["Bob Tester is on it.", "Cat Tester is on it."])
        #expect(try await test.notifications(bob, .alertAcknowledged).isEmpty)
        test.clock.advance(by: 3600)
        _ = try await test.sweep()
        #expect(try await test.received(dan, .alertAcknowledged) == ["Ann Tester's check-in has expired. Bob Tester is on it."])
    }

    @Test("a sweeper that dies while telling a tier leaves it to the next sweep, which tells it once", arguments: Engine.allCases)
    func crashedTier(engine: Engine) async throws {
        let (test, _, people) = try await tiered(engine)
        let crashing = LifeSignalBackend(
            database: CrashingDatabase(base: test.backend.database, failOn: "INSERT INTO notifications"),
            configuration: test.backend.configuration)
        test.clock.advance(by: 3600)
        await #expect(throws: CrashingDatabase.Crash.self) { try await crashing.sweep.run(caller: .service) }
        #expect(try await test.heardNothing(people[1]))
        #expect(try await test.count("alert_recipients") == 1)
        #expect(try await test.sweep()["tiersAdvanced"] as? Int == 1)
        #expect(try await test.sweep()["tiersAdvanced"] as? Int == 0)
        #expect(try await test.notifications(people[1], .nonResponsiveDependent).count == 1)
        #expect(try await test.count("alert_recipients") == 2)
    }

    @Test("repeats to the person and the current tier while nobody acknowledged, then none", arguments: Engine.allCases)
    func repeats(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: cat, dependent: ann)
        try await test.setTier(cat, 2, for: ann)
        _ = try await test.call("update-escalation-settings", ann, ["repeatSeconds": 900])
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        test.clock.advance(by: 24 * 3600)
        _ = try await test.sweep()
        test.clock.advance(by: 899)
        #expect(try await test.sweep()["repeats"] as? Int == 0)
        test.clock.advance(by: 1)
        #expect(try await test.sweep()["repeats"] as? Int == 1)
        #expect(try await test.sweep()["repeats"] as? Int == 0)
        test.clock.advance(by: 900)
        #expect(try await test.sweep()["repeats"] as? Int == 1)
        #expect(try await test.notifications(bob, .nonResponsiveDependent).map(\.title).filter { $0.hasPrefix("Reminder") }.count == 2)
        #expect(try await test.notifications(ann, .nonResponsiveSelf).filter { $0.title == "Check in now" }.count == 2)
        #expect(try await test.heardNothing(cat))  // tier 2's turn has not come
        let incident = try #require(try await test.backend.alerts.activeAlert(caller: ann))
        _ = try await test.backend.alerts.respond(caller: bob, alertID: incident.id)
        test.clock.advance(by: 3600)
        #expect(try await test.sweep()["repeats"] as? Int == 0)
        #expect(try await test.notifications(ann, .nonResponsiveSelf).filter { $0.title == "Check in now" }.count == 2)
    }

    @Test("all-clear to exactly everyone told: SOS cancelled, missed check-in marked safe", arguments: Engine.allCases)
    func allClear(engine: Engine) async throws {
        let (test, ann, people) = try await tiered(engine)
        let (bob, cat, dan) = (people[0], people[1], people[2])
        test.clock.advance(by: 3600)
        _ = try await test.sweep()  // Cat (tier 2) told; Dan not yet
        let incident = try #require(try await test.backend.alerts.activeAlert(caller: ann))
        test.clock.advance(by: 60)
        let reply = try await test.call("mark-safe", bob, ["alertId": incident.id.uuidString])
        #expect(reply["resolution"] as? String == "marked_safe")
        #expect(try await test.received(cat, .markedSafe) == ["Bob Tester confirmed Ann Tester is safe."])
        #expect(try await test.heardNothing(dan))
        #expect(try await test.notifications(bob, .markedSafe).isEmpty)
        #expect(try await test.received(ann, .markedSafe) == ["Bob Tester confirmed you are safe; everyone told heard so."])
        // The confirmation counts as a check-in on Ann's behalf: a fresh interval.
        let history = try await test.backend.checkIns.history(caller: ann)
        #expect(history.first?.source == .responderInitiated && history.first?.checkedInAt == test.clock.now)
        test.clock.advance(by: 6 * 3600)
        #expect(try await test.sweep()["notifications"] as? Int == 0)

        // An SOS tells everyone at once; its cancel reaches those told, not someone linked since.
        let sos = try await test.backend.alerts.trigger(caller: ann)
        #expect(sos.kind == .sos && sos.tier == 3)
        let eve = try await test.person("+15550000005", "Eve")
        try await test.link(responder: eve, dependent: ann)
        _ = try await test.call("cancel-alert", ann)
        for responder in [bob, cat, dan] {
            #expect(try await test.received(responder, .alertCancelledReceived) == ["Ann Tester cancelled their emergency alert."])
        }
        #expect(try await test.heardNothing(eve))
    }
}
