/// Which SQL engine a ``Database`` talks to; the few statements that differ switch on it.
public enum SQLDialect: String, Sendable, Hashable {
    case sqlite
    case postgres
}

/// A connection inside a transaction.
public protocol SQLConnection: Sendable {
    var dialect: SQLDialect { get }
    /// Runs a statement and returns its rows (empty for statements that return none).
    @discardableResult
    func query(_ sql: SQL) async throws -> [SQLRow]
    /// The rows of `select` as a JSON array, and how many: ``renderedArray(_:render:)``
    /// (PostgreSQL writes the JSON itself; other engines hand the rows to `render`).
    func renderedArray(_ select: SQL, render: @Sendable ([SQLRow]) -> String) async throws -> (body: String, count: Int)
}

extension SQLConnection {
    /// The first row, or `nil`.
    public func first(_ sql: SQL) async throws -> SQLRow? { try await query(sql).first }

    public func renderedArray(_ select: SQL, render: @Sendable ([SQLRow]) -> String) async throws -> (body: String, count: Int) {
        let rows = try await query(select)
        return (render(rows), rows.count)
    }
}

/// Storage for the backend: one engine's connections (`LifeSignalSQLite`, `LifeSignalPostgres`).
///
/// Every rule runs inside ``transaction(_:)``: the body's writes commit together when it
/// returns and roll back together when it throws, so a multi-row change (the two halves of a
/// contact pair, say) is never left half done.
///
/// Past the transaction, each requirement is one thing an engine may do its own way; the
/// defaults (`DatabaseCapabilities.swift`) are right for an engine without that way, so the
/// rules and the server ask for the capability and never for an engine.
public protocol Database: Sendable {
    var dialect: SQLDialect { get }
    /// A human-readable description of where the data lives, without credentials.
    var location: String { get }
    /// Runs `body` in a transaction. On SQLite transactions are serialised; on PostgreSQL
    /// they run concurrently at READ COMMITTED, so rules that read-then-write lock their rows.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T
    /// Runs a single statement as its own transaction (by default through ``transaction(_:)``;
    /// PostgreSQL runs it as it is, without the `BEGIN` and `COMMIT` round trips).
    @discardableResult
    func query(_ sql: SQL) async throws -> [SQLRow]
    /// Closes every connection. Further use fails.
    func close() async throws
    /// The engine's reader of the change log Realtime follows; one that polls reads every
    /// `pollInterval`.
    func makeChangeLogReader(pollInterval: Duration) -> any ChangeLogReader

    /// Runs `body` in a transaction as `caller`: an engine that enforces grants and row-level
    /// security itself takes the caller's role and claims for it.
    func transaction<T: Sendable>(as caller: CallerSettings, _ body: @escaping @Sendable (any SQLConnection) async throws -> T) async throws -> T
    /// What the engine makes once of a page read it will run again and again (kept in the REST
    /// plan cache).
    func preparePage(select: SQL, count: SQL?) -> PageQuery
    /// Reads one page as `caller` its fastest way, or `nil` when it has none for this read (the
    /// caller then runs it in ``transaction(as:_:)``). `render` writes rows as JSON for an
    /// engine that does not.
    func readPage(_ page: PageQuery, as caller: CallerSettings, render: @escaping @Sendable ([SQLRow]) -> String) async throws -> PageResult?
    /// Runs one statement that only reads, without waiting behind writes where the engine can.
    func readOutsideWriter(_ statement: SQL) async throws -> [SQLRow]
    /// How long statements and waits for a connection may take (``DatabaseLimits``).
    func apply(_ limits: DatabaseLimits)
    /// Whether the engine can be reached now (a server's readiness).
    func isReachable() async -> Bool
    /// The payloads of notifications on `channel` (PostgreSQL's `LISTEN`), calling
    /// `onListening` each time listening starts again; `nil` for an engine without them.
    func notifications(on channel: String, onListening: @escaping @Sendable () -> Void) -> AsyncThrowingStream<String, any Error>?
    /// Runs once after migrations, before the backend serves (statistics for the planner).
    func afterMigrations() async throws
}

extension Database {
    /// A single statement in a transaction of its own.
    @discardableResult
    public func query(_ sql: SQL) async throws -> [SQLRow] {
        try await transaction { try await $0.query(sql) }
    }
}

/// A SQL engine the backend can open: the URL schemes it answers to and how it opens one.
///
/// Each engine is a target of its own: `LifeSignalSQLite` (`DatabaseEngine.sqlite`) and
/// `LifeSignalPostgres` (`DatabaseEngine.postgres`), so an app that embeds the backend links
/// SQLite only, and a server passes both to ``DatabaseFactory/open(url:engines:)``. The rules
/// know neither.
public struct DatabaseEngine: Sendable {
    /// URL prefixes this engine opens, e.g. `postgres://`.
    public var schemes: [String]
    public var open: @Sendable (_ url: String) async throws -> any Database

    /// Whether this engine also opens a URL without a scheme (a plain file path).
    public var opensPlainPaths: Bool

    public init(schemes: [String], opensPlainPaths: Bool = false, open: @escaping @Sendable (_ url: String) async throws -> any Database) {
        self.schemes = schemes
        self.opensPlainPaths = opensPlainPaths
        self.open = open
    }
}

/// Opens the database a URL names, with the first engine whose scheme it has; a URL without a
/// scheme goes to the engine that opens plain paths (SQLite).
public enum DatabaseFactory {
    public static func open(url: String, engines: [DatabaseEngine]) async throws -> any Database {
        if let engine = engines.first(where: { engine in engine.schemes.contains { url.hasPrefix($0) } }) {
            return try await engine.open(url)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            throw DatabaseError.configuration("a PostgreSQL URL needs the PostgreSQL engine (LifeSignalPostgres), which this program does not include")
        }
        guard !url.contains("://"), let engine = engines.first(where: \.opensPlainPaths) else {
            throw DatabaseError.configuration("unsupported database URL \"\(url)\"; use postgres://… or a file path")
        }
        return try await engine.open(url)
    }
}
