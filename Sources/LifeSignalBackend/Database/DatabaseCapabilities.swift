import Foundation

/// Who a statement runs as: the role an engine with grants and row-level security switches to,
/// and the claims it publishes as `request.jwt.claims` (where `auth.uid()` reads them).
public struct CallerSettings: Sendable, Hashable {
    public var role: DatabaseRole
    /// The caller's token claims as JSON text.
    public var claims: String

    public init(role: DatabaseRole, claims: String) {
        self.role = role
        self.claims = claims
    }
}

/// A page read as the REST plan keeps it: the `SELECT`, the statement counting its total, and
/// what the engine made of them once (PostgreSQL: one statement writing the JSON, with its
/// prepared statement's name), opaque to everyone but that engine.
public struct PageQuery: Sendable {
    public let select: SQL
    public let count: SQL?
    public let prepared: (any Sendable)?

    public init(select: SQL, count: SQL?, prepared: (any Sendable)? = nil) {
        self.select = select
        self.count = count
        self.prepared = prepared
    }
}

/// A page as PostgREST's JSON array, its row count, and the total `count` found.
public typealias PageResult = (body: String, rows: Int, total: Int?)

/// How long a server lets the database take.
public struct DatabaseLimits: Sendable, Hashable {
    /// The longest one statement may run before it fails as ``DatabaseError/unavailable(_:)``.
    public var statementDeadline: Duration
    /// How long to wait for a connection before the engine counts as unreachable.
    public var unavailableAfter: Duration

    public init(statementDeadline: Duration, unavailableAfter: Duration) {
        self.statementDeadline = statementDeadline
        self.unavailableAfter = unavailableAfter
    }
}

extension Database {
    /// The plain transaction: right for an engine that enforces no grants of its own (the
    /// statements then carry the policies, as on SQLite).
    public func transaction<T: Sendable>(as caller: CallerSettings, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws
        -> T
    { try await transaction(body) }

    public func preparePage(select: SQL, count: SQL?) -> PageQuery { PageQuery(select: select, count: count) }

    /// No fast way: the caller reads in ``transaction(as:_:)``.
    public func readPage(_ page: PageQuery, as caller: CallerSettings, render: @escaping @Sendable ([SQLRow]) -> String) async throws -> PageResult? {
        nil
    }

    public func readOutsideWriter(_ statement: SQL) async throws -> [SQLRow] { try await query(statement) }

    public func apply(_ limits: DatabaseLimits) {}

    public func isReachable() async -> Bool { true }

    public func notifications(on channel: String, onListening: @escaping @Sendable () -> Void) -> AsyncThrowingStream<String, any Error>? { nil }

    public func afterMigrations() async throws {}
}
