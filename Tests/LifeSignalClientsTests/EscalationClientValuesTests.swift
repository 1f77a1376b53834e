import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

/// The test and preview values of issue 19's endpoints: escalation, an SOS with a location,
/// mark-safe and the channel choices.
@Suite("Escalation, incident and channel client values")
struct EscalationClientValuesTests {
    @Test("the test values fail any call a test did not override")
    func testValuesAreUnimplemented() async throws {
        await withKnownIssue { _ = try await CheckInClient.testValue.escalation() }
        await withKnownIssue { _ = try await CheckInClient.testValue.resume() }
        await withKnownIssue { _ = try await AlertClient.testValue.markSafe(UUID()) }
        await withKnownIssue { _ = try await NotificationClient.testValue.deliveryPreferences() }
    }

    @Test("the preview escalation: settings checked, tiers per responder, pause and resume")
    func previewEscalation() async throws {
        let client = CheckInClient.previewValue
        let start = try await client.escalation()
        #expect(start.settings == EscalationSettings() && start.responders.map(\.tier) == [1, 2] && start.pausedUntil == nil)
        #expect(try await client.updateEscalation(900, nil, 1800).settings == EscalationSettings(graceSeconds: 900, repeatSeconds: 1800))
        #expect(try await client.updateEscalation(nil, nil, 0).settings.repeatSeconds == nil)
        await #expect(throws: DomainError.self) { _ = try await client.updateEscalation(nil, 10, nil) }
        let maya = start.responders[0].id
        #expect(try await client.setResponderTier(maya, 3).responders.map(\.name) == ["Sam", "Maya Lopez"])
        await #expect(throws: DomainError.invalidArgument("tier must be from 1 to 9, not 0")) { _ = try await client.setResponderTier(maya, 0) }
        await #expect(throws: DomainError.self) { _ = try await client.setResponderTier(UserID(UUID()), 2) }
        let until = Date().addingTimeInterval(3600)
        #expect(try await client.pause(until).isPaused(at: Date()))
        await #expect(throws: DomainError.self) { _ = try await client.pause(Date().addingTimeInterval(-1)) }
        #expect(try await client.resume().pausedUntil == nil)
    }

    @Test("the preview SOS keeps a shared location, refuses one out of range, and ends when marked safe")
    func previewIncident() async throws {
        let client = AlertClient.previewValue
        let place = AlertLocation(latitude: 40.7, longitude: -74, accuracyMeters: 30, time: Date(timeIntervalSince1970: 1_800_000_000))
        await #expect(throws: DomainError.self) { _ = try await client.triggerSharing(AlertLocation(latitude: 0, longitude: 200, time: Date())) }
        #expect(try await client.activeAlert(nil) == nil)
        let alert = try await client.triggerSharing(place)
        #expect(alert.location == place)
        #expect(try await client.activeAlert(nil) == alert)
        await #expect(throws: DomainError.notFound("Active alert")) { _ = try await client.markSafe(UUID()) }
        _ = try await client.markSafe(alert.id)
        #expect(try await client.activeAlert(nil) == nil)
    }

    @Test("the preview channels: the defaults, then only the channels given change")
    func previewChannels() async throws {
        let client = NotificationClient.previewValue
        #expect(try await client.deliveryPreferences() == .standard)
        #expect(try await client.updateDeliveryPreferences(nil, .off, nil, nil) == DeliveryPreferences(push: .all, sms: .off, email: .urgent))
        #expect(try await client.deliveryPreferences() == DeliveryPreferences(push: .all, sms: .off, email: .urgent))
    }
}
