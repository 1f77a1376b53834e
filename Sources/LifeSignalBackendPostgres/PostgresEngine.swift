import LifeSignalBackend

extension DatabaseEngine {
    /// PostgreSQL: `postgres://…` and `postgresql://…` URLs.
    public static let postgres = DatabaseEngine(schemes: ["postgres://", "postgresql://"]) { url in try await PostgresDatabase(url: url) }

    /// Both engines: what a server opens.
    public static let all: [DatabaseEngine] = [.postgres, .sqlite]
}

extension PostgresDatabase {
    /// PostgreSQL's own change log reader, woken by `NOTIFY` (``PostgresChangeLog``).
    public func makeChangeLogReader() -> (any ChangeLogReader)? { PostgresChangeLog(database: self) }
}
