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

    /// One statement, as the engine runs it (PostgreSQL: without `BEGIN` and `COMMIT`): it
    /// queues no ledger rows, so it needs no rules in scope.
    func query(_ sql: SQL) async throws -> [SQLRow] { try await base.query(sql) }

    // The engine's own ways, unchanged: only transactions need the rules in scope.
    func makeChangeLogReader(pollInterval: Duration) -> any ChangeLogReader { base.makeChangeLogReader(pollInterval: pollInterval) }
    func transaction<T: Sendable>(as caller: CallerSettings, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T {
        try await DeliveryLedger.$channelsInScope.withValue(channels) {
            try await DeliveryLedger.$rulesInScope.withValue(rules) { try await base.transaction(as: caller, body) }
        }
    }
    func preparePage(select: SQL, count: SQL?) -> PageQuery { base.preparePage(select: select, count: count) }
    func readPage(_ page: PageQuery, as caller: CallerSettings, render: @escaping @Sendable ([SQLRow]) -> String) async throws -> PageResult? {
        try await base.readPage(page, as: caller, render: render)
    }
    func readOutsideWriter(_ statement: SQL) async throws -> [SQLRow] { try await base.readOutsideWriter(statement) }
    func apply(_ limits: DatabaseLimits) { base.apply(limits) }
    func isReachable() async -> Bool { await base.isReachable() }
    func notifications(on channel: String, onListening: @escaping @Sendable () -> Void) -> AsyncThrowingStream<String, any Error>? {
        base.notifications(on: channel, onListening: onListening)
    }
    func afterMigrations() async throws { try await base.afterMigrations() }
}
