/// Bounds on what one `/rest/v1` request (or one Realtime filter) may ask the database to do.
///
/// PostgREST itself bounds none of these but `db-max-rows`; its database does the rest. Here
/// the query grammar is the attack surface: a query string of about 10,000 conditions, or a
/// logic tree nested thousands deep, must be refused with a 400 before any SQL exists, in
/// time linear in its length and with recursion no deeper than ``maxDepth``. SQLite also
/// refuses an expression tree deeper than 1,000 (`Expression tree is too large`), which the
/// defaults keep well clear of.
public struct QueryLimits: Sendable, Hashable {
    /// Deepest nesting of `and(…)`/`or(…)` groups; `or=(a,b)` is 1.
    public var maxDepth: Int
    /// Conditions (`column.op.value`) in one request, counting every filter and tree leaf.
    public var maxConditions: Int
    /// Values in all `in.(…)` lists of one request together.
    public var maxListItems: Int
    /// Items of `select`, and names of `columns` and `on_conflict`.
    public var maxSelectItems: Int
    /// Terms of `order`.
    public var maxOrderTerms: Int
    /// Most rows one read returns, applied after the caller's `limit` and `Range`, like
    /// PostgREST's `db-max-rows` (Supabase's default is 1,000); `nil` for no cap.
    public var maxRows: Int?
    /// Most rows one POST may insert or upsert. A bulk insert is one transaction, so on
    /// SQLite it holds the only writer until its last row: this bounds how long a sign-in or
    /// a check-in can wait behind it.
    public var maxWriteRows: Int

    public init(
        maxDepth: Int = 10, maxConditions: Int = 200, maxListItems: Int = 1_000,
        maxSelectItems: Int = 200, maxOrderTerms: Int = 16, maxRows: Int? = 1_000, maxWriteRows: Int = 1_000
    ) {
        self.maxDepth = maxDepth
        self.maxConditions = maxConditions
        self.maxListItems = maxListItems
        self.maxSelectItems = maxSelectItems
        self.maxOrderTerms = maxOrderTerms
        self.maxRows = maxRows
        self.maxWriteRows = maxWriteRows
    }

    public static let standard = QueryLimits()
}

/// What a request has used of its ``QueryLimits`` so far, carried across its query pairs.
struct QueryBudget {
    let limits: QueryLimits
    private(set) var conditions = 0
    private(set) var listItems = 0

    init(_ limits: QueryLimits) { self.limits = limits }

    mutating func spendCondition(part: String) throws(RESTError) {
        conditions += 1
        guard conditions <= limits.maxConditions else {
            throw RESTError.limit(
                part, "more than \(limits.maxConditions) conditions in one request",
                hint: "Use an in.(…) list for many values of one column")
        }
    }

    mutating func spendListItem(part: String) throws(RESTError) {
        listItems += 1
        guard listItems <= limits.maxListItems else {
            throw RESTError.limit(part, "more than \(limits.maxListItems) values in in.(…) lists in one request")
        }
    }

    func checkDepth(_ depth: Int) throws(RESTError) {
        guard depth <= limits.maxDepth else {
            throw RESTError.limit("logic tree", "and/or groups nested deeper than \(limits.maxDepth) levels")
        }
    }
}
