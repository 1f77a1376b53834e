import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

/// Incidents over either wire: raising one (with a shared location), marking a dependent safe,
/// and reading one back with everything `get-active-alert` says of it.
extension FunctionCalling {
    /// `trigger-alert`, then `get-active-alert` for the rest: the trigger's reply (the seed's)
    /// carries only the id, status and time, not the tier the responders were told in nor the
    /// location as stored. If the alert is already over when read back, the reply's fields
    /// are what there is.
    func triggerAlert(sharing location: AlertLocation?) async throws -> AlertRecord {
        let reply: TriggerAlertResponse = try await call(CloudFunctions.triggerAlert, TriggerAlertRequest(location: location.map(LocationWire.init)))
        let id = try WireParse.uuid(reply.alertId)
        if let stored = try await activeAlert(of: nil), stored.id == id { return stored }
        return AlertRecord(
            id: id, userID: try await me(), status: try WireParse.alertStatus(reply.status), activatedAt: try WireParse.date(reply.activatedAt),
            location: location)
    }

    /// `mark-safe`: when the incident ended.
    func markSafe(_ id: UUID) async throws -> Date {
        let reply: MarkSafeResponse = try await call(CloudFunctions.markSafe, MarkSafeRequest(alertId: id.uuidString.lowercased()))
        guard let resolvedAt = try WireParse.date(reply.resolvedAt) else {
            throw DomainError.internal("The server marked alert \(id) safe without saying when it ended")
        }
        return resolvedAt
    }

    /// `get-active-alert`: mine, or a dependent's.
    func activeAlert(of user: UserID?) async throws -> AlertRecord? {
        let reply: GetActiveAlertResponse = try await call(CloudFunctions.getActiveAlert, GetActiveAlertRequest(userId: user?.description))
        guard reply.hasActiveAlert, let id = reply.alertId, let activatedAt = reply.activatedAt else { return nil }
        let owner = if let user { user } else { try await me() }
        var kind = AlertKind.sos
        if let name = reply.kind {
            guard let parsed = AlertKind(rawValue: name) else { throw DomainError.internal("The server sent the alert kind \"\(name)\"") }
            kind = parsed
        }
        return AlertRecord(
            id: try WireParse.uuid(id), userID: owner, status: try WireParse.alertStatus(reply.status ?? ""),
            activatedAt: try WireParse.date(activatedAt),
            responses: try (reply.responses ?? []).map {
                AlertResponse(responderID: try WireParse.userID($0.responderId), responderName: $0.name, respondedAt: try WireParse.date($0.respondedAt))
            },
            kind: kind, deadline: try WireParse.date(reply.deadline), tier: reply.tier ?? 1,
            acknowledgedAt: try WireParse.date(reply.acknowledgedAt), acknowledgedBy: try reply.acknowledgedBy.map(WireParse.userID),
            location: try reply.location.map { wire in
                AlertLocation(
                    latitude: wire.latitude, longitude: wire.longitude, accuracyMeters: wire.accuracy,
                    time: try WireParse.date(wire.time) ?? WireParse.date(activatedAt))
            })
    }
}
