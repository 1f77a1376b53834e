import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Issue 19's client side on every adapter: escalation settings, responder tiers and the
/// pause (`CheckInClient`), an SOS with a location and "They're safe" (`AlertClient`), and the
/// channel choices (`NotificationClient`). Bob checks in; Alice is his responder.
@Suite("Escalation, incidents and channels contract", .serialized)
struct EscalationContractTests {
    @Test("escalation settings, a responder's tier, pause and resume: each answer is the stored state", arguments: AdapterBackend.withFirebase)
    func settings(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await AlertPingContractTests.link(harness)
        let bob = harness.bobClients
        let alice = harness.aliceClients
        let aliceID = UserID(harness.aliceID)
        let bobID = UserID(harness.bobID)

        let initial = try await bob.checkIns.escalation()
        #expect(initial.settings == EscalationSettings(graceSeconds: 0, tierDelaySeconds: 7200, repeatSeconds: nil))
        #expect(initial.pausedUntil == nil)
        #expect(initial.responders == [CheckInEscalation.Responder(id: aliceID, name: AdapterHarness.alicePhone, tier: 1)])
        // Alice has no responders: Bob is her dependent, not hers to tier.
        #expect(try await alice.checkIns.escalation().responders.isEmpty)

        let changed = try await bob.checkIns.updateEscalation(900, 3600, 1800)
        #expect(changed.settings == EscalationSettings(graceSeconds: 900, tierDelaySeconds: 3600, repeatSeconds: 1800))
        // Left out stays; a repeat of 0 turns repeats off.
        let noRepeats = try await bob.checkIns.updateEscalation(nil, nil, 0)
        #expect(noRepeats.settings == EscalationSettings(graceSeconds: 900, tierDelaySeconds: 3600, repeatSeconds: nil))
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.updateEscalation(86_401, nil, nil) } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.updateEscalation(nil, 60, nil) } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.updateEscalation(nil, nil, 600) } == "invalid_argument")
        #expect(try await bob.checkIns.escalation().settings == noRepeats.settings)

        #expect(try await bob.checkIns.setResponderTier(aliceID, 3).responders.map(\.tier) == [3])
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.setResponderTier(aliceID, 10) } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.setResponderTier(aliceID, 0) } == "invalid_argument")
        // Bob is not Alice's responder: she has nobody to tier.
        #expect(await ErrorCodes.of { _ = try await alice.checkIns.setResponderTier(bobID, 2) } == "not_found")
        #expect(try await bob.checkIns.escalation().responders.map(\.tier) == [3])

        let now = harness.test.clock.now
        let until = now.addingTimeInterval(6 * 3600)
        let paused = try await bob.checkIns.pause(until)
        #expect(paused.pausedUntil == until && paused.isPaused(at: now))
        #expect(try await bob.checkIns.escalation().pausedUntil == until)
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.pause(now.addingTimeInterval(31 * 86_400)) } == "invalid_argument")
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.pause(now.addingTimeInterval(-60)) } == "invalid_argument")
        let resumed = try await bob.checkIns.resume()
        #expect(resumed.pausedUntil == nil && !resumed.isPaused(at: now))
        #expect(await ErrorCodes.of { _ = try await bob.checkIns.resume() } == "failed_precondition")
    }

    @Test("an SOS with a location: the responder sees where, says I'm on it, and marks the dependent safe", arguments: AdapterBackend.withFirebase)
    func sosWithLocation(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await AlertPingContractTests.link(harness)
        let bob = harness.bobClients
        let alice = harness.aliceClients
        let aliceID = UserID(harness.aliceID)
        let bobID = UserID(harness.bobID)

        let nowhere = AlertLocation(latitude: 91, longitude: 0, time: harness.test.clock.now)
        #expect(await ErrorCodes.of { _ = try await bob.alerts.triggerSharing(nowhere) } == "invalid_argument")
        #expect(try await bob.alerts.activeAlert(nil) == nil)

        let place = AlertLocation(latitude: 51.5007, longitude: -0.1246, accuracyMeters: 25, time: harness.test.clock.now.addingTimeInterval(-30))
        let alert = try await bob.alerts.triggerSharing(place)
        #expect(alert.kind == .sos && alert.status == .active && alert.userID == bobID && alert.location == place)
        #expect(try await bob.alerts.activeAlert(nil) == alert)
        let seen = try #require(try await alice.alerts.activeAlert(bobID))
        #expect(seen.id == alert.id && seen.location == place && seen.acknowledgedBy == nil)

        _ = try await alice.alerts.respond(alert.id)
        let acknowledged = try #require(try await alice.alerts.activeAlert(bobID))
        #expect(acknowledged.acknowledgedBy == aliceID && acknowledged.acknowledgedAt != nil)
        // Only a responder marks someone safe; Bob ends his own SOS by cancelling it.
        #expect(await ErrorCodes.of { _ = try await bob.alerts.markSafe(alert.id) } != nil)
        harness.test.clock.advance(by: 60)
        let resolvedAt = try await alice.alerts.markSafe(alert.id)
        #expect(resolvedAt == harness.test.clock.now)
        #expect(try await bob.alerts.activeAlert(nil) == nil)
        #expect(try await alice.alerts.activeAlert(bobID) == nil)
        #expect(await ErrorCodes.of { _ = try await alice.alerts.markSafe(alert.id) } != nil)
        // Without a location, as before.
        #expect(try await bob.alerts.trigger().location == nil)
    }

    @Test("a missed check-in is an incident the responder reads and marks safe; that counts as a check-in", arguments: AdapterBackend.withFirebase)
    func missedCheckIn(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        try await AlertPingContractTests.link(harness)
        let bob = harness.bobClients
        let alice = harness.aliceClients
        let bobID = UserID(harness.bobID)

        _ = try await bob.checkIns.checkIn()
        // The deadline is moved behind the adapters' backs rather than the clock a day on, so
        // the wire sessions' access tokens (an hour) stay valid.
        let deadline = harness.test.clock.now.addingTimeInterval(-1)
        let moved: SQL = "UPDATE users SET check_in_deadline = \(SQLValue.timestamp(deadline)) WHERE id = \(SQLValue.uuid(harness.bobID))"
        try await harness.test.backend.database.query(moved)
        _ = try await harness.test.backend.sweep.run(caller: .service)
        let incident = try #require(try await alice.alerts.activeAlert(bobID))
        #expect(incident.kind == .missedCheckIn && incident.deadline == deadline && incident.tier == 1 && incident.location == nil)
        #expect(try await bob.alerts.activeAlert(nil)?.id == incident.id)

        harness.test.clock.advance(by: 60)
        _ = try await alice.alerts.markSafe(incident.id)
        #expect(try await alice.alerts.activeAlert(bobID) == nil)
        #expect(try await bob.checkIns.status().lastCheckIn == harness.test.clock.now)
    }

    @Test("channel choices: the defaults, a change of some, read back; each person's own", arguments: AdapterBackend.withFirebase)
    func channels(backend: AdapterBackend) async throws {
        let harness = try await AdapterHarness.start(backend)
        defer { Task { await harness.stop() } }
        let bob = harness.bobClients
        let alice = harness.aliceClients

        #expect(try await bob.notifications.deliveryPreferences() == .standard)
        #expect(try await bob.notifications.updateDeliveryPreferences(nil, .off, nil, nil) == DeliveryPreferences(push: .all, sms: .off, email: .urgent))
        let changed = try await bob.notifications.updateDeliveryPreferences(.urgent, nil, .all, .urgent)
        #expect(changed == DeliveryPreferences(push: .urgent, sms: .off, email: .all, voice: .urgent))
        #expect(try await bob.notifications.deliveryPreferences() == changed)
        #expect(try await alice.notifications.deliveryPreferences() == .standard)
    }
}
