import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain

extension LocalAdapters {
    /// SOS alerts on the embedded backend.
    public var alertClient: AlertClient {
        let alerts = backend.alerts
        return AlertClient(
            trigger: { try await alerts.trigger(caller: try await caller()) },
            cancel: { _ = try await alerts.cancel(caller: try await caller(), alertID: $0) },
            activeAlert: { try await alerts.activeAlert(caller: try await caller(), of: $0) },
            respond: { try await alerts.respond(caller: try await caller(), alertID: $0).respondedAt })
    }

    /// Pings on the embedded backend.
    public var pingClient: PingClient {
        let pings = backend.pings
        return PingClient(
            ping: { try await pings.ping(caller: try await caller(), dependent: $0) },
            respond: { try await pings.respond(caller: try await caller(), to: $0) },
            respondToAll: { try await pings.respondToAll(caller: try await caller()) },
            clear: { try await pings.clear(caller: try await caller(), dependent: $0) })
    }
}
