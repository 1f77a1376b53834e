import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    static let alertFunctions: [Registration] = [
        handle(CloudFunctions.triggerAlert) { backend, caller, request in
            let alert = try await backend.alerts.trigger(caller: caller, location: try request.location?.validated(now: backend.clock.now()))
            return TriggerAlertResponse(
                success: true, alertId: alert.id.uuidString.lowercased(), activatedAt: Timestamp.format(alert.activatedAt),
                status: alert.status.rawValue, kind: alert.kind.rawValue, location: alert.location.map(LocationWire.init))
        },
        handle(CloudFunctions.cancelAlert) { backend, caller, request in
            let id = try request.alertId.map { (text) throws(DomainError) in try WireField.uuid(text, field: "alertId") }
            let alert = try await backend.alerts.cancel(caller: caller, alertID: id)
            return CancelAlertResponse(
                success: true, alertId: alert.id.uuidString.lowercased(), status: alert.status.rawValue,
                resolvedAt: WireField.time(alert.resolvedAt))
        },
        handle(CloudFunctions.getActiveAlert) { backend, caller, request in
            let user = try request.userId.map { (text) throws(DomainError) in try WireField.userID(text, field: "userId") }
            let alert = try await backend.alerts.activeAlert(caller: caller, of: user)
            return GetActiveAlertResponse(alert)
        },
        handle(CloudFunctions.respondToAlert) { backend, caller, request in
            let id = try WireField.uuid(request.alertId, field: "alertId")
            let response = try await backend.alerts.respond(caller: caller, alertID: id)
            return RespondToAlertResponse(
                success: true, alertId: id.uuidString.lowercased(), respondedAt: Timestamp.format(response.respondedAt))
        },
        handle(CloudFunctions.markSafe) { backend, caller, request in
            let alert = try await backend.alerts.markSafe(caller: caller, alertID: try WireField.uuid(request.alertId, field: "alertId"))
            return MarkSafeResponse(
                success: true, alertId: alert.id.uuidString.lowercased(), status: alert.status.rawValue,
                resolution: alert.resolution?.rawValue ?? "", resolvedAt: WireField.time(alert.resolvedAt))
        },
    ]
}
