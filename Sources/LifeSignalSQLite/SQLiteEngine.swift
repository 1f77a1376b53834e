import Foundation
import LifeSignalBackend

extension DatabaseEngine {
    /// SQLite: `sqlite:///path`, `file:///path` or a plain path (any URL without a scheme).
    public static let sqlite = DatabaseEngine(schemes: ["sqlite://", "file://"], opensPlainPaths: true) { url in
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

extension SQLiteDatabase {
    /// SQLite's log, polled every `pollInterval` (``SQLiteChangeLog``).
    public func makeChangeLogReader(pollInterval: Duration) -> any ChangeLogReader {
        SQLiteChangeLog(database: self, interval: pollInterval)
    }

    /// A read-only connection answers, so reads never wait for the writer's turn.
    public func readOutsideWriter(_ statement: SQL) async throws -> [SQLRow] { try await readStatement(statement) }

    /// SQLite has no roles: the statements carry the declared policies themselves (the REST
    /// builder writes them in), so any caller's read takes a read-only connection instead of
    /// the writer's turn; a read without a count is one statement, its own snapshot, and needs
    /// no transaction around it.
    public func readPage(_ page: PageQuery, as caller: CallerSettings, render: @escaping @Sendable ([SQLRow]) -> String) async throws
        -> PageResult?
    {
        guard let count = page.count else {
            let rows = try await readStatement(page.select)
            return (render(rows), rows.count, nil)
        }
        let results = try await readSnapshot([count, page.select])
        let rows = results.last ?? []
        return (render(rows), rows.count, try results.first?.first?.int("total"))
    }

    /// Reads on read-only connections stop at the statement deadline; the one writer has no
    /// pool to wait for.
    public func apply(_ limits: DatabaseLimits) { readDeadline = limits.statementDeadline }

    /// SQLite plans without statistics unless asked; without them it prefers any equality
    /// index over an index in ORDER BY order. 0x10002 analyses what needs it (bounded by
    /// `analysis_limit`, so a large file opens quickly).
    public func afterMigrations() async throws {
        try await query("PRAGMA analysis_limit=1000")
        try await query("PRAGMA optimize=0x10002")
    }
}
