import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// SOS alerts through `trigger-alert`, `cancel-alert`, `get-active-alert`, `respond-to-alert`.
    public var alertClient: AlertClient {
        let adapters = self
        return AlertClient(
            trigger: {
                let reply: TriggerAlertResponse = try await adapters.call("trigger-alert")
                return AlertRecord(
                    id: try WireParse.uuid(reply.alertId), userID: try await adapters.me(),
                    status: try SupabaseAdapters.alertStatus(reply.status), activatedAt: try WireParse.date(reply.activatedAt))
            },
            cancel: { id in
                let _: CancelAlertResponse = try await adapters.call("cancel-alert", CancelAlertRequest(alertId: id?.uuidString.lowercased()))
            },
            activeAlert: { user in
                let reply: GetActiveAlertResponse = try await adapters.call("get-active-alert", GetActiveAlertRequest(userId: user?.description))
                guard reply.hasActiveAlert, let id = reply.alertId, let activatedAt = reply.activatedAt else { return nil }
                let owner: UserID
                if let user { owner = user } else { owner = try await adapters.me() }
                return AlertRecord(
                    id: try WireParse.uuid(id), userID: owner, status: try SupabaseAdapters.alertStatus(reply.status ?? ""),
                    activatedAt: try WireParse.date(activatedAt),
                    responses: try (reply.responses ?? []).map {
                        AlertResponse(
                            responderID: try WireParse.userID($0.responderId), responderName: $0.name, respondedAt: try WireParse.date($0.respondedAt))
                    })
            },
            respond: { id in
                let reply: RespondToAlertResponse = try await adapters.call("respond-to-alert", RespondToAlertRequest(alertId: id.uuidString.lowercased()))
                return try WireParse.date(reply.respondedAt)
            })
    }

    /// Pings through `ping-dependent`, `respond-to-ping`, `respond-to-all-pings`, `clear-ping`.
    public var pingClient: PingClient {
        let adapters = self
        return PingClient(
            ping: { dependent in
                let reply: PingDependentResponse = try await adapters.call("ping-dependent", DependentRequest(dependentId: dependent.description))
                return try WireParse.uuid(reply.pingId)
            },
            respond: { responder in
                let _: SuccessResponse = try await adapters.call("respond-to-ping", RespondToPingRequest(responderId: responder.description))
            },
            respondToAll: {
                let reply: RespondToAllPingsResponse = try await adapters.call("respond-to-all-pings")
                return reply.respondedCount
            },
            clear: { dependent in
                let _: SuccessResponse = try await adapters.call("clear-ping", DependentRequest(dependentId: dependent.description))
            })
    }
}
