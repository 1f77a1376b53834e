extension Schema {
    /// The seed-004 lists read only live rows in display order (`deleted_at IS NULL ORDER BY
    /// sort_order, name`, events by start date). Partial indexes in exactly that order let
    /// both engines read a page of 50 by walking the index instead of sorting every row.
    static let contentListIndexes = Migration(
        version: 105, name: "content list indexes",
        statements: contentTables.map {
            "CREATE INDEX \($0)_live_order ON \($0) (sort_order, name) WHERE deleted_at IS NULL"
        } + ["CREATE INDEX events_live_start ON events (start_date, name) WHERE deleted_at IS NULL"])
}
