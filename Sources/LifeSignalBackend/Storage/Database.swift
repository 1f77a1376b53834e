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
    /// Closes every connection. Further use fails.
    func close() async throws
}

extension Database {
    /// A single statement in its own transaction.
    @discardableResult
    public func query(_ sql: SQL) async throws -> [SQLRow] {
        try await transaction { try await $0.query(sql) }
    }
}

/// Opens the database a URL names: `postgres://…` / `postgresql://…` for PostgreSQL,
/// `sqlite:///path`, `file:///path` or a plain path for SQLite.
public enum DatabaseFactory {
    public static func open(url: String) async throws -> any Database {
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            return try await PostgresDatabase(url: url)
        }
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
