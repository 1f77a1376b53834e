import LifeSignalDomain
import LifeSignalFunctions

/// The database as the backend's rules see it: every transaction runs with the server's
/// channels and delivery rules in scope (``DeliveryLedger/channelsInScope``,
/// ``DeliveryLedger/rulesInScope``), so a notification written in it is queued for exactly the
/// channels this server has senders for, within its caps, without every rule having to pass
/// them along.
struct DeliveringDatabase: Database {
    let base: any Database
    let channels: Set<DeliveryChannel>
    let rules: DeliveryRules

    var dialect: SQLDialect { base.dialect }
    var location: String { base.location }

    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await DeliveryLedger.$channelsInScope.withValue(channels) {
            try await DeliveryLedger.$rulesInScope.withValue(rules) { try await base.transaction(body) }
        }
    }

    func close() async throws { try await base.close() }
}
