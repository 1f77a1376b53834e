import Foundation

/// A `/rest/v1` read, parsed from the query string: PostgREST's grammar of `select`, filters, logic trees, `order` and paging
/// turned into data, before any SQL exists.
struct ReadPlan: Sendable, Hashable {
    var select: [SelectItem] = [.all]
    var filters: [FilterNode] = []
    var order: [OrderTerm] = []
    var limit: Int?
    var offset = 0
}

enum SelectItem: Sendable, Hashable {
    case all
    case column(name: String, alias: String?)
}

enum FilterOperator: String, Sendable, Hashable, CaseIterable {
    case eq, neq, gt, gte, lt, lte, like, ilike, `is`, `in`
    /// Array containment and overlap: `@>`, `<@`, `&&`, with a `{a,b}` literal.
    case cs, cd, ov
}

indirect enum FilterNode: Sendable, Hashable {
    case predicate(column: String, negated: Bool, op: FilterOperator, value: FilterValue)
    case logic(isAnd: Bool, negated: Bool, children: [FilterNode])
}

enum FilterValue: Sendable, Hashable {
    case scalar(String)
    case list([String])
}

struct OrderTerm: Sendable, Hashable {
    var column: String
    var ascending = true
    var nullsFirst: Bool?
}
