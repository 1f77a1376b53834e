import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Seed `004_…`'s content contract over the backend's own database: the in-process side of
/// `ContentClient`. Over HTTP the same rules come from PostgREST queries and the tables'
/// access policies; here they are applied in SQL by the service, with the same outcome:
/// editors (`app_metadata.role` = `editor`, and the service role) read every non-deleted
/// record with its creator; everyone else reads published ones without `created_by`; only
/// editors write, each their own records (docs/security.md, "Content").
public struct ContentService: Sendable {
    let database: any Database
    let clock: BackendClock

    /// The non-deleted records passing `filter` (and, for events, the day window) that
    /// `viewer` may read, in the contract's order. `limit` and `offset` take one page of that
    /// order (the order ends with the id, so pages neither overlap nor skip).
    public func list<R: ContentRecord>(
        _ type: R.Type, filter: ContentFilter, from: CalendarDay? = nil, to: CalendarDay? = nil, limit: Int? = nil, offset: Int = 0,
        viewer: Caller = .anonymous
    ) async throws -> [R] {
        let dialect = database.dialect
        let editor = try await ContentEditors.isEditor(viewer, in: database)
        // The contract's first filter, before any other.
        var sql = SQL.raw("SELECT * FROM \(R.table.rawValue) WHERE deleted_at IS NULL")
        if !editor { sql = sql + " AND status = \(ContentStatus.published.rawValue)" }
        if let term = ContentRules.searchTerm(filter.search) {
            let pattern = SQLValue.text(ContentRules.likePattern(term))
            sql = sql + (dialect == .postgres ? " AND name ILIKE \(pattern)" : " AND name LIKE \(pattern) ESCAPE '\\'")
        }
        if let status = filter.status { sql = sql + " AND status = \(status.rawValue)" }
        if let from {
            let day = ContentValue.day(from).sqlValue(dialect)
            sql = sql + " AND (start_date >= \(day) OR end_date >= \(day) OR (start_date IS NULL AND end_date IS NULL))"
        }
        if let to { sql = sql + " AND start_date <= \(ContentValue.day(to).sqlValue(dialect))" }
        let byDay = R.table == .events ? "start_date ASC NULLS LAST, " : ""
        sql = sql + SQL.raw(" ORDER BY sort_order ASC, \(byDay)name ASC, id ASC")
        if let limit { sql = sql + " LIMIT \(SQLValue.int(Int64(limit))) OFFSET \(SQLValue.int(Int64(offset)))" }
        return try await database.query(sql).map { ContentEditors.shown(try R.decode($0), editor: editor) }
    }

    /// One non-deleted record `viewer` may read (a draft only for an editor).
    ///
    /// - Throws: ``DomainError/notFound(_:)`` for an unknown, soft-deleted or unreadable id.
    public func record<R: ContentRecord>(_ type: R.Type, id: UUID, viewer: Caller = .anonymous) async throws -> R {
        let editor = try await ContentEditors.isEditor(viewer, in: database)
        var sql = SQL.raw("SELECT * FROM \(R.table.rawValue) WHERE deleted_at IS NULL AND id = ") + "\(SQLValue.uuid(id))"
        if !editor { sql = sql + " AND status = \(ContentStatus.published.rawValue)" }
        guard let row = try await database.query(sql).first else { throw DomainError.notFound("\(R.table.noun) \(id)") }
        return ContentEditors.shown(try R.decode(row), editor: editor)
    }

    /// Creates or updates the draft's record for `caller`, an editor, and returns it as stored.
    ///
    /// - Throws: ``DomainError/unauthenticated`` for an anonymous caller;
    ///   ``DomainError/forbidden(_:)`` for someone who is not an editor;
    ///   ``DomainError/notFound(_:)`` for a soft-deleted record; ``DomainError/forbidden(_:)``
    ///   for someone else's; ``DomainError/alreadyExists(_:)`` for a slug in use;
    ///   ``DomainError/invalidArgument(_:)`` for a draft that does not validate.
    public func save<D: ContentDraft>(_ draft: D, caller: Caller) async throws -> D.Record {
        let table = D.Record.table
        let userID = try caller.requireUser()
        guard try await ContentEditors.isEditor(caller, in: database) else { throw ContentRules.notEditor(table) }
        let columns = try draft.columns()
        let now = clock.now()
        let dialect = database.dialect
        do {
            return try await database.transaction { connection in
                if let id = draft.id, try await Self.owned(table, id: id, by: userID, in: connection) {
                    let assignments = columns.keys.sorted().map { SQL.raw("\($0) = ") + "\(columns[$0, default: .null].sqlValue(dialect))" }
                    let sql =
                        SQL.raw("UPDATE \(table.rawValue) SET ") + SQL.join(assignments, separator: ", ")
                        + ", updated_at = \(SQLValue.timestamp(now)) WHERE id = \(SQLValue.uuid(id)) RETURNING *"
                    guard let row = try await connection.first(sql) else { throw DomainError.notFound("\(table.noun) \(id)") }
                    return try D.Record.decode(row)
                }
                var values = columns.mapValues { $0.sqlValue(dialect) }
                values["id"] = .uuid(draft.id ?? UUID())
                values["created_by"] = .uuid(userID.rawValue)
                values["created_at"] = .timestamp(now)
                values["updated_at"] = .timestamp(now)
                let names = values.keys.sorted()
                let sql =
                    SQL.raw("INSERT INTO \(table.rawValue) (\(names.joined(separator: ", "))) VALUES (")
                    + SQL.join(names.map { "\(values[$0, default: .null])" as SQL }, separator: ", ") + ") RETURNING *"
                guard let row = try await connection.first(sql) else { throw DomainError.internal("INSERT returned no row") }
                return try D.Record.decode(row)
            }
        } catch let error as DatabaseError where error.isUniqueViolation {
            throw ContentRules.slugTaken(table, columns: columns)
        }
    }

    /// Soft-deletes a record of `caller`'s: sets `deleted_at` and keeps the row.
    public func delete<R: ContentRecord>(_ type: R.Type, id: UUID, caller: Caller) async throws {
        let userID = try caller.requireUser()
        guard try await ContentEditors.isEditor(caller, in: database) else { throw ContentRules.notEditor(R.table) }
        let now = clock.now()
        try await database.transaction { connection in
            guard try await Self.owned(R.table, id: id, by: userID, in: connection) else {
                throw DomainError.notFound("\(R.table.noun) \(id)")
            }
            try await connection.query(
                SQL.raw("UPDATE \(R.table.rawValue) SET deleted_at = ")
                    + "\(SQLValue.timestamp(now)), updated_at = \(SQLValue.timestamp(now)) WHERE id = \(SQLValue.uuid(id))")
        }
    }

    /// Whether the record exists and `userID` may change it: `false` when there is no such
    /// record; throws when it is deleted or someone else's. Locks the row on PostgreSQL.
    static func owned(_ table: ContentTable, id: UUID, by userID: UserID, in connection: any SQLConnection) async throws -> Bool {
        guard
            let row = try await connection.first(
                SQL.raw("SELECT created_by, deleted_at FROM \(table.rawValue) WHERE id = ")
                    + "\(SQLValue.uuid(id))" + connection.forUpdate)
        else { return false }
        if row.optionalDate("deleted_at") != nil { throw DomainError.notFound("\(table.noun) \(id)") }
        guard row.optionalUUID("created_by") == userID.rawValue else {
            throw ContentRules.notCreator(table)
        }
        return true
    }
}
