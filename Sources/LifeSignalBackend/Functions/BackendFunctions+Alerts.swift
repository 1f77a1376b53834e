import Foundation
import LifeSignalDomain

extension BackendFunctions {
    static let alertFunctions: [String: Handler] = [
        "trigger-alert": { backend, caller, _ in
            let alert = try await backend.alerts.trigger(caller: caller)
            return try encode(TriggerAlertResponse(
                success: true, alertId: alert.id.uuidString.lowercased(), activatedAt: Timestamp.format(alert.activatedAt),
                status: alert.status.rawValue))
        },
        "cancel-alert": { backend, caller, body in
            let request = try decode(CancelAlertRequest.self, from: body)
            let id = try request.alertId.map { (text) throws(DomainError) in try uuid(text, field: "alertId") }
            let alert = try await backend.alerts.cancel(caller: caller, alertID: id)
            return try encode(CancelAlertResponse(
                success: true, alertId: alert.id.uuidString.lowercased(), status: alert.status.rawValue,
                resolvedAt: time(alert.resolvedAt)))
        },
        "get-active-alert": { backend, caller, body in
            let request = try decode(GetActiveAlertRequest.self, from: body)
            let user = try request.userId.map { (text) throws(DomainError) in try userID(text, field: "userId") }
            let alert = try await backend.alerts.activeAlert(caller: caller, of: user)
            return try encode(GetActiveAlertResponse(alert))
        },
        "respond-to-alert": { backend, caller, body in
            let request = try decode(RespondToAlertRequest.self, from: body)
            let id = try uuid(request.alertId, field: "alertId")
            let response = try await backend.alerts.respond(caller: caller, alertID: id)
            return try encode(RespondToAlertResponse(
                success: true, alertId: id.uuidString.lowercased(), respondedAt: Timestamp.format(response.respondedAt)))
        },
    ]
}

/// Seed `000_…`'s TriggerAlertResponse.
public struct TriggerAlertResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var alertId: String
    public var activatedAt: String
    public var status: String
}

/// Seed `000_…`'s CancelAlertRequest; `alertId` may be left out to cancel whichever is active.
public struct CancelAlertRequest: Codable, Sendable {
    public var alertId: String?
    public init(alertId: String?) { self.alertId = alertId }
}

public struct CancelAlertResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var alertId: String
    public var status: String
    public var resolvedAt: String?
}

/// `userId` asks for a dependent's alert (the caller must be their responder).
public struct GetActiveAlertRequest: Codable, Sendable {
    public var userId: String?
    public init(userId: String?) { self.userId = userId }
}

/// Seed `000_…`'s GetActiveAlertResponse, plus who responded.
public struct GetActiveAlertResponse: Codable, Sendable, Hashable {
    public struct Responder: Codable, Sendable, Hashable {
        public var responderId: String
        public var name: String
        public var respondedAt: String
    }

    public var hasActiveAlert: Bool
    public var alertId: String?
    public var activatedAt: String?
    public var status: String?
    public var responses: [Responder]?

    init(_ alert: AlertRecord?) {
        hasActiveAlert = alert != nil
        alertId = alert.map { $0.id.uuidString.lowercased() }
        activatedAt = alert.map { Timestamp.format($0.activatedAt) }
        status = alert?.status.rawValue
        responses = alert?.responses.map {
            Responder(responderId: $0.responderID.description, name: $0.responderName, respondedAt: Timestamp.format($0.respondedAt))
        }
    }
}

public struct RespondToAlertRequest: Codable, Sendable {
    public var alertId: String
    public init(alertId: String) { self.alertId = alertId }
}

public struct RespondToAlertResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public var alertId: String
    public var respondedAt: String
}
