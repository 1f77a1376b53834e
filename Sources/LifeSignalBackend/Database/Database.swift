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
}

extension SQLConnection {
    /// The first row, or `nil`.
    public func first(_ sql: SQL) async throws -> SQLRow? { try await query(sql).first }
}

/// Storage for the backend: a pool of connections to SQLite or PostgreSQL.
///
/// Every rule runs inside ``transaction(_:)``: the body's writes commit together when it
/// returns and roll back together when it throws, so a multi-row change (the two halves of a
/// contact pair, say) is never left half done.
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
    /// The engine's own reader of the change log Realtime follows, or `nil` to poll it.
    func makeChangeLogReader() -> (any ChangeLogReader)?
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
/// SQLite (``sqlite``) is built in. PostgreSQL lives in `LifeSignalBackendPostgres`
/// (`DatabaseEngine.postgres`), so an app that embeds the backend links SQLite only, and a
/// server passes both engines to ``DatabaseFactory/open(url:engines:)``.
public struct DatabaseEngine: Sendable {
    /// URL prefixes this engine opens, e.g. `postgres://`.
    public var schemes: [String]
    public var open: @Sendable (_ url: String) async throws -> any Database

    public init(schemes: [String], open: @escaping @Sendable (_ url: String) async throws -> any Database) {
        self.schemes = schemes
        self.open = open
    }

    /// SQLite: `sqlite:///path`, `file:///path` or a plain path (the fallback for any URL no
    /// other engine claims).
    public static let sqlite = DatabaseEngine(schemes: ["sqlite://", "file://"]) { url in try await DatabaseFactory.openSQLite(url: url) }
}

/// Opens the database a URL names, with the first engine whose scheme it has; a URL without a
/// scheme is a SQLite path.
public enum DatabaseFactory {
    public static func open(url: String, engines: [DatabaseEngine] = [.sqlite]) async throws -> any Database {
        if let engine = engines.first(where: { engine in engine.schemes.contains { url.hasPrefix($0) } }) {
            return try await engine.open(url)
        }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            throw DatabaseError.configuration("a PostgreSQL URL needs the PostgreSQL engine (LifeSignalBackendPostgres), which this program does not include")
        }
        return try await openSQLite(url: url)
    }

    static func openSQLite(url: String) async throws -> any Database {
        var path = url
        for prefix in ["sqlite://", "file://"] where path.hasPrefix(prefix) {
            path = String(path.dropFirst(prefix.count))
        }
        guard !path.isEmpty, !path.contains("://") else {
            throw DatabaseError.configuration("unsupported database URL \"\(url)\"; use postgres://… or a file path")
        }
        return try await SQLiteDatabase(path: path)
    }
}
