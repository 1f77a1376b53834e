import LifeSignalBackend

extension DatabaseEngine {
    /// PostgreSQL: `postgres://…` and `postgresql://…` URLs.
    public static let postgres = DatabaseEngine(schemes: ["postgres://", "postgresql://"]) { url in try await PostgresDatabase(url: url) }
}

extension PostgresDatabase {
    /// PostgreSQL's own change log reader, woken by `NOTIFY` (``PostgresChangeLog``).
    public func makeChangeLogReader(pollInterval: Duration) -> any ChangeLogReader { PostgresChangeLog(database: self) }
}
