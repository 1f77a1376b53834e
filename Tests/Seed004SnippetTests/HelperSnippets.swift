import Foundation
import SupabaseREST

/// The seed's "Query Builder Helpers", "Sorting Patterns" and "Pagination" snippets.
///
/// The seed declares both helpers as taking and returning `PostgrestQueryBuilder`, which
/// contradicts their own bodies: `.select(…).is(…)` and `.ilike(…)` return a
/// `PostgrestFilterBuilder` in supabase-swift, and a `PostgrestQueryBuilder` (the stage
/// before `select`) has no `ilike` at all. The nearest form real supabase-swift accepts types
/// both as `PostgrestFilterBuilder`; the bodies are unchanged. `select(columns:)` is the
/// pre-2.0 supabase-swift spelling of `select(_:)`, which SupabaseREST still accepts.
struct HelperSnippets {
    let client: SupabaseClient

    /// "Base Query Helper".
    func baseQuery(table: String, select: String = "*") -> PostgrestFilterBuilder {
        return
            client
            .from(table)
            .select(columns: select)
            .is("deleted_at", value: nil)
    }

    /// "Search Helper".
    func withSearch(_ query: PostgrestFilterBuilder, searchTerm: String?, field: String = "name") -> PostgrestFilterBuilder {
        guard let searchTerm = searchTerm, !searchTerm.isEmpty else {
            return query
        }
        return query.ilike(field, pattern: "%\(searchTerm)%")
    }

    /// "Standard Sorting" — Locations/Routes. The snippet reassigns `query = query.order(…)`;
    /// `order` returns a `PostgrestTransformBuilder` in supabase-swift, so `query` must be typed
    /// as that (a filter builder is one, so any started query can be passed in).
    func sortedByName(_ start: PostgrestTransformBuilder) -> PostgrestTransformBuilder {
        var query = start
        query =
            query
            .order("sort_order", ascending: true)
            .order("name", ascending: true)
        return query
    }

    /// "Standard Sorting" — Events.
    func sortedByStartDate(_ start: PostgrestTransformBuilder) -> PostgrestTransformBuilder {
        var query = start
        query =
            query
            .order("sort_order", ascending: true)
            .order("start_date", ascending: true)
        return query
    }

    /// "Pagination (Future)". `limit(count:)` is supabase-swift's older labelled spelling of
    /// `limit(_:)`. The pattern sets the limit twice: `range(from:to:)` already sends
    /// `limit=to-from+1`, and the following `limit(count:)` replaces it, so with `limit` ≠
    /// `to - from + 1` the page size is `limit`, starting at `from`.
    func paginated(_ start: PostgrestTransformBuilder, from: Int, to: Int, limit: Int) -> PostgrestTransformBuilder {
        var query = start
        query =
            query
            .range(from: from, to: to)
            .limit(count: limit)
        return query
    }
}
