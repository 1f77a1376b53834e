import Foundation

/// Adds row filters (`column=<op>.<value>`) to a request.
///
/// Every filter becomes its own query parameter and PostgREST ANDs them; use ``or(_:referencedTable:)``
/// for alternatives. Values are sent verbatim after the operator (PostgREST takes the rest of
/// the parameter as the value), then percent-encoded; only `in` lists and array literals
/// are quoted, because only there do commas and parentheses have meaning.
public class PostgrestFilterBuilder: PostgrestTransformBuilder, @unchecked Sendable {
    /// PostgREST operators, for ``not(_:operator:value:)``.
    public enum Operator: String, CaseIterable, Sendable {
        case eq, neq, gt, gte, lt, lte, like, ilike, `is`, `in`, cs, cd, sl, sr, nxl, nxr, adj, ov,
            fts, plfts, phfts, wfts
    }

    func appendFilter(_ column: String, _ value: String) -> PostgrestFilterBuilder {
        state.withValue { $0.query.append(QueryItem(name: column, value: value)) }
        return self
    }

    /// Rows where `column` equals `value` (`eq`). For NULL use ``is(_:value:)``.
    public func eq(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "eq.\(value.rawValue)")
    }

    /// Rows where `column` differs from `value` (`neq`); NULLs never match.
    public func neq(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "neq.\(value.rawValue)")
    }

    /// Rows where `column > value`.
    public func gt(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "gt.\(value.rawValue)")
    }

    /// Rows where `column >= value`.
    public func gte(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "gte.\(value.rawValue)")
    }

    /// Rows where `column < value`.
    public func lt(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "lt.\(value.rawValue)")
    }

    /// Rows where `column <= value`.
    public func lte(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "lte.\(value.rawValue)")
    }

    /// Rows where `column LIKE pattern` (case-sensitive; `%` and `*` are wildcards).
    public func like(_ column: String, pattern: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "like.\(pattern.rawValue)")
    }

    /// Rows where `column ILIKE pattern` (case-insensitive; `%` and `*` are wildcards).
    public func ilike(_ column: String, pattern: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "ilike.\(pattern.rawValue)")
    }

    /// Rows where `column` matches every pattern (`like(all).{…}`).
    public func likeAllOf(_ column: String, patterns: [some PostgrestFilterValue]) -> PostgrestFilterBuilder {
        appendFilter(column, "like(all).\(patterns.rawValue)")
    }

    /// Rows where `column` matches any pattern (`like(any).{…}`).
    public func likeAnyOf(_ column: String, patterns: [some PostgrestFilterValue]) -> PostgrestFilterBuilder {
        appendFilter(column, "like(any).\(patterns.rawValue)")
    }

    /// Rows where `column` matches every pattern, ignoring case (`ilike(all).{…}`).
    public func iLikeAllOf(_ column: String, patterns: [some PostgrestFilterValue]) -> PostgrestFilterBuilder {
        appendFilter(column, "ilike(all).\(patterns.rawValue)")
    }

    /// Rows where `column` matches any pattern, ignoring case (`ilike(any).{…}`).
    public func iLikeAnyOf(_ column: String, patterns: [some PostgrestFilterValue]) -> PostgrestFilterBuilder {
        appendFilter(column, "ilike(any).\(patterns.rawValue)")
    }

    /// Rows where `column IS value`: `nil` → `is.NULL`, `true`/`false` → `is.true`/`is.false`.
    ///
    /// `NULL` is upper-case because that is what supabase-swift sends (PostgREST accepts any
    /// case for `is` values).
    public func `is`(_ column: String, value: Bool?) -> PostgrestFilterBuilder {
        appendFilter(column, "is.\(value.rawValue)")
    }

    /// Rows where `column` is one of `values`: `in.(a,b)`. Elements holding `, ( ) " \` or
    /// outer spaces are double-quoted with `\` escapes so they stay one element.
    public func `in`(_ column: String, values: [any PostgrestFilterValue]) -> PostgrestFilterBuilder {
        let list = values.map { escapeInListElement($0.rawValue) }.joined(separator: ",")
        return appendFilter(column, "in.(\(list))")
    }

    /// Rows where the jsonb/array/range `column` contains `value` (`cs`).
    public func contains(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "cs.\(value.rawValue)")
    }

    /// Rows where the jsonb/array/range `column` is contained by `value` (`cd`).
    public func containedBy(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "cd.\(value.rawValue)")
    }

    /// Rows where the array/range `column` shares an element with `value` (`ov`).
    public func overlaps(_ column: String, value: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "ov.\(value.rawValue)")
    }

    /// Rows where the range `column` is strictly left of `range` (`sl`).
    public func rangeLt(_ column: String, range: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "sl.\(range.rawValue)")
    }

    /// Rows where the range `column` is strictly right of `range` (`sr`).
    public func rangeGt(_ column: String, range: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "sr.\(range.rawValue)")
    }

    /// Rows where the range `column` does not extend left of `range` (`nxl`).
    public func rangeGte(_ column: String, range: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "nxl.\(range.rawValue)")
    }

    /// Rows where the range `column` does not extend right of `range` (`nxr`).
    public func rangeLte(_ column: String, range: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "nxr.\(range.rawValue)")
    }

    /// Rows where the range `column` is adjacent to `range` (`adj`).
    public func rangeAdjacent(_ column: String, range: any PostgrestFilterValue) -> PostgrestFilterBuilder {
        appendFilter(column, "adj.\(range.rawValue)")
    }

    /// Full-text search: `[pl|ph|w]fts[(config)].<query>`.
    public func textSearch(
        _ column: String,
        query: any PostgrestFilterValue,
        config: String? = nil,
        type: TextSearchType? = nil
    ) -> PostgrestFilterBuilder {
        let configPart = config.map { "(\($0))" } ?? ""
        return appendFilter(column, "\(type?.rawValue ?? "")fts\(configPart).\(query.rawValue)")
    }

    /// Rows where `NOT (column <op> value)`: `not.<op>.<value>`. Note that `not.is.true`
    /// also matches NULLs, unlike `neq.true`.
    public func not(
        _ column: String,
        operator op: Operator,
        value: any PostgrestFilterValue
    ) -> PostgrestFilterBuilder {
        appendFilter(column, "not.\(op.rawValue).\(value.rawValue)")
    }

    /// Rows matching any of `filters`, written in PostgREST's logic-tree syntax without the
    /// outer parentheses: `"status.eq.a,and(x.gte.1,x.lte.9)"` → `or=(status.eq.a,…)`.
    ///
    /// - Parameter referencedTable: Apply the alternative to an embedded resource
    ///   (`<table>.or=(…)`).
    public func or(_ filters: any PostgrestFilterValue, referencedTable: String? = nil) -> PostgrestFilterBuilder {
        appendFilter(referencedTable.map { "\($0).or" } ?? "or", "(\(filters.rawValue))")
    }

    /// One `eq` filter per entry, in key order (sorted, so the URL is reproducible).
    public func match(_ query: [String: any PostgrestFilterValue]) -> PostgrestFilterBuilder {
        for key in query.keys.sorted() {
            if let value = query[key] { _ = appendFilter(key, "eq.\(value.rawValue)") }
        }
        return self
    }

    /// The escape hatch: `column=<operator>.<value>`, both sent verbatim (PostgREST syntax,
    /// e.g. `filter("id", operator: "not.in", value: "(1,2)")`).
    public func filter(_ column: String, operator: String, value: String) -> PostgrestFilterBuilder {
        appendFilter(column, "\(`operator`).\(value)")
    }
}
