import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    static let pingFunctions: [Registration] = [
        handle(CloudFunctions.pingDependent) { backend, caller, request in
            let id = try await backend.pings.ping(caller: caller, dependent: try WireField.userID(request.dependentId, field: "dependentId"))
            return PingDependentResponse(success: true, pingId: id.uuidString.lowercased())
        },
        handle(CloudFunctions.clearPing) { backend, caller, request in
            try await backend.pings.clear(caller: caller, dependent: try WireField.userID(request.dependentId, field: "dependentId"))
            return SuccessResponse()
        },
        handle(CloudFunctions.respondToPing) { backend, caller, request in
            try await backend.pings.respond(caller: caller, to: try WireField.userID(request.responderId, field: "responderId"))
            return SuccessResponse()
        },
        handle(CloudFunctions.respondToAllPings) { backend, caller, _ in
            let count = try await backend.pings.respondToAll(caller: caller)
            return RespondToAllPingsResponse(success: true, respondedCount: count)
        },
    ]
}
