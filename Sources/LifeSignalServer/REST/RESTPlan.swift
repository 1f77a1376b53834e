import LifeSignalBackend

/// Step 2 of a `/rest/v1` read: the parsed request (``RESTReadRequest``) against the schema
/// cache and as the caller — the page bounded by `Range` and `db-max-rows`, every selected
/// column checked to exist and be readable by the caller's role. The SQL (step 3) comes from
/// its ``RESTSQLBuilder``, which carries the role's grants and, on SQLite, its policies.
struct RESTReadPlan {
    let builder: RESTSQLBuilder
    /// The query with the range and the row cap applied.
    let query: ReadPlan
    /// The result's columns, in order, each with its name in the JSON.
    let columns: [(name: String, column: ColumnSchema)]
    let countExact: Bool
    let singular: Bool
    let head: Bool

    init(
        _ request: RESTReadRequest, table: TableSchema, dialect: SQLDialect, caller: Caller, claims: TokenClaims?,
        maxRows: Int?
    ) throws(RESTError) {
        var query = request.query
        request.range?.apply(to: &query)
        if let maxRows { query.limit = min(query.limit ?? maxRows, maxRows) }
        self.query = query
        builder = RESTSQLBuilder(table: table, dialect: dialect, caller: caller, claims: claims)
        columns = try builder.outputColumns(query)
        countExact = request.countExact
        singular = request.media == .object
        head = request.head
    }

    /// Step 3: the page's `SELECT`.
    func select() throws(RESTError) -> SQL { try builder.select(query, columns: columns) }

    /// Step 3: the total's `SELECT count(*)`, when `Prefer: count=exact` asked for it.
    func count() throws(RESTError) -> SQL? { countExact ? try builder.count(query) : nil }
}

/// Step 2 of a `/rest/v1` write: the parsed write (``RESTWriteRequest``) against the schema
/// cache and as the caller — a PUT turned into its single-row upsert, the returned columns
/// checked, the role's grant for the command required, and PostgREST's refusal of an
/// unfiltered PATCH or DELETE.
struct PlannedWrite {
    let kind: WritePlan.Kind
    let plan: WritePlan
    let builder: RESTSQLBuilder
    let columns: [(name: String, column: ColumnSchema)]
    let singular: Bool
    let put: Bool

    /// The plan, or `nil` for a PATCH that sets nothing (answered 204 without SQL).
    static func make(
        _ request: RESTWriteRequest, table: TableSchema, dialect: SQLDialect, caller: Caller,
        claims: TokenClaims?
    ) throws(RESTError) -> PlannedWrite? {
        let kind = request.parsed.kind
        let plan = request.put ? try RESTPutPlan.upsert(from: request.parsed, pairs: request.pairs, table: table) : request.parsed
        let builder = RESTSQLBuilder(table: table, dialect: dialect, caller: caller, claims: claims)
        let columns = try builder.outputColumns(ReadPlan(select: plan.select))
        switch kind {
        case .insert: try builder.requireGrant(.insert)
        case .update:
            guard !plan.filters.isEmpty else { throw RESTError(status: .badRequest, code: .cardinalityViolation, message: "UPDATE requires a WHERE clause") }
            if plan.columns.isEmpty || plan.rows.isEmpty { return nil }
            try builder.requireGrant(.update)
        case .delete:
            guard !plan.filters.isEmpty else { throw RESTError(status: .badRequest, code: .cardinalityViolation, message: "DELETE requires a WHERE clause") }
            try builder.requireGrant(.delete)
        }
        return PlannedWrite(kind: kind, plan: plan, builder: builder, columns: columns, singular: request.media == .object, put: request.put)
    }
}
