import Foundation
import LifeSignalDomain

extension BackendFunctions {
    static let pingFunctions: [String: Handler] = [
        "ping-dependent": { backend, caller, body in
            let request = try decode(DependentRequest.self, from: body)
            let id = try await backend.pings.ping(caller: caller, dependent: try userID(request.dependentId, field: "dependentId"))
            return try encode(PingDependentResponse(success: true, pingId: id.uuidString.lowercased()))
        },
        "clear-ping": { backend, caller, body in
            let request = try decode(DependentRequest.self, from: body)
            try await backend.pings.clear(caller: caller, dependent: try userID(request.dependentId, field: "dependentId"))
            return try encode(SuccessResponse())
        },
        "respond-to-ping": { backend, caller, body in
            let request = try decode(RespondToPingRequest.self, from: body)
            try await backend.pings.respond(caller: caller, to: try userID(request.responderId, field: "responderId"))
            return try encode(SuccessResponse())
        },
        "respond-to-all-pings": { backend, caller, _ in
            let count = try await backend.pings.respondToAll(caller: caller)
            return try encode(RespondToAllPingsResponse(success: true, respondedCount: count))
        },
    ]
}

/// `ping-dependent` and `clear-ping`: the dependent's user id.
public struct DependentRequest: Codable, Sendable {
    public var dependentId: String
    public init(dependentId: String) { self.dependentId = dependentId }
}
public struct PingDependentResponse: Codable, Sendable, Hashable { public var success: Bool; public var pingId: String }
/// `respond-to-ping`: the user id of the responder whose ping is answered.
public struct RespondToPingRequest: Codable, Sendable {
    public var responderId: String
    public init(responderId: String) { self.responderId = responderId }
}
public struct RespondToAllPingsResponse: Codable, Sendable, Hashable { public var success: Bool; public var respondedCount: Int }
