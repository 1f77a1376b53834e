import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// SOS alerts on the embedded backend; the stream follows the change feed for my alerts
    /// and the responses to them.
    public var alertClient: AlertClient {
        let alerts = backend.alerts
        let tests = backend.testAlerts
        let changes = backend.changes
        let clock = backend.clock
        return AlertClient(
            trigger: { try await alerts.trigger(caller: try await caller()) },
            triggerSharing: { location in
                // The same checks as the function's: ranges, and a fix not from the future.
                try location.validate()
                guard location.time <= clock.now().addingTimeInterval(300) else {
                    throw DomainError.invalidArgument("location.time must not be in the future")
                }
                return try await alerts.trigger(caller: try await caller(), location: location)
            },
            cancel: { _ = try await alerts.cancel(caller: try await caller(), alertID: $0) },
            activeAlert: { try await alerts.activeAlert(caller: try await caller(), of: $0) },
            respond: { try await alerts.respond(caller: try await caller(), alertID: $0).respondedAt },
            markSafe: { id in
                let alert = try await alerts.markSafe(caller: try await caller(), alertID: id)
                guard let resolvedAt = alert.resolvedAt else { throw DomainError.internal("Alert \(id) was marked safe but not resolved") }
                return resolvedAt
            },
            stream: {
                let caller = try await caller()
                let me = try caller.requireUser()
                // Subscribed before the first read, so nothing committed after this is missed.
                let events = changes.subscribe(ChangeFeed.Filter(ownerID: me))
                let start = try await alerts.activeAlert(caller: caller)
                return Rereading.stream(following: events, from: start) { event, _ in
                    guard ["alerts", "alert_responses"].contains(event.table) else { return nil }
                    return .some(try await alerts.activeAlert(caller: caller))
                }
            },
            sendTestAlert: { try await tests.send(caller: try await caller()) },
            testAlert: { try await tests.latest(caller: try await caller()) })
    }

    /// Pings on the embedded backend; what waits on either side is read from the contact
    /// list, and followed through its stream.
    public var pingClient: PingClient {
        let pings = backend.pings
        let contacts = contactsClient
        return PingClient(
            ping: { try await pings.ping(caller: try await caller(), dependent: $0) },
            respond: { try await pings.respond(caller: try await caller(), to: $0) },
            respondToAll: { try await pings.respondToAll(caller: try await caller()) },
            clear: { try await pings.clear(caller: try await caller(), dependent: $0) },
            pending: { PingList(try await contacts.contacts()).pending },
            sent: { PingList(try await contacts.contacts()).sent },
            stream: { try await PingList.changes(of: contacts) })
    }
}
