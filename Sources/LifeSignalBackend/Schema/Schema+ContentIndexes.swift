extension Schema {
    /// The seed-004 lists read only live rows in display order (`deleted_at IS NULL ORDER BY
    /// sort_order, name`, events by start date). Partial indexes in exactly that order let
    /// both engines read a page of 50 by walking the index instead of sorting every row.
    static let contentListIndexes = Migration(
        version: 105, name: "content list indexes",
        statements: contentTables.map {
            "CREATE INDEX \($0)_live_order ON \($0) (sort_order, name) WHERE deleted_at IS NULL"
        } + ["CREATE INDEX events_live_start ON events (start_date, name) WHERE deleted_at IS NULL"])

    /// On SQLite, the single-column `deleted_at` and `status` indexes go. Almost every row is
    /// live and most are published, but without statistics SQLite takes `deleted_at IS NULL`
    /// or `status = 'published'` for a selective equality and walks that index, then sorts
    /// every matching row for a page of 50; without them the list walks the live-order index
    /// and stops after the page (5 ms against 0.2 ms at 10,000 rows). PostgreSQL keeps
    /// statistics and does not choose them for these reads.
    static let sqliteLowSelectivityIndexes = Migration(
        version: 141, name: "SQLite: no deleted_at or status indexes",
        statements: [],
        sqliteOnly: contentTables.flatMap { ["DROP INDEX IF EXISTS \($0)_deleted_at", "DROP INDEX IF EXISTS \($0)_status"] })
}
