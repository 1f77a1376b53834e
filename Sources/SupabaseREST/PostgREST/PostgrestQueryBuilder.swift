import Foundation

/// The first step of a table request: choose the verb.
///
/// `select` reads (`GET`), `insert`/`upsert` write (`POST`), `update` patches (`PATCH`),
/// `delete` deletes (`DELETE`). Each returns a ``PostgrestFilterBuilder`` to add filters.
public final class PostgrestQueryBuilder: PostgrestBuilder, @unchecked Sendable {
    /// Reads rows: `GET /rest/v1/<table>?select=<columns>`.
    ///
    /// - Parameters:
    ///   - columns: The `select` list (`*`, `id,name`, `events(*)`, …). Whitespace outside
    ///     double quotes is removed, as PostgREST would reject it.
    ///   - head: Send `HEAD`: no rows come back, only headers (use with `count`).
    ///   - count: Ask for a row count (`Prefer: count=…`), read as ``PostgrestResponse/count``.
    public func select(
        _ columns: String = "*",
        head: Bool = false,
        count: CountOption? = nil
    ) -> PostgrestFilterBuilder {
        state.withValue {
            $0.method = head ? .head : .get
            $0.query.append(QueryItem(name: "select", value: cleanColumns(columns)))
            if let count { $0.headers["Prefer"] = "count=\(count.rawValue)" }
        }
        return PostgrestFilterBuilder(self)
    }

    /// The pre-2.0 supabase-swift spelling of ``select(_:head:count:)``, kept because
    /// existing code (and the project's API contract document) still uses it.
    public func select(
        columns: String,
        head: Bool = false,
        count: CountOption? = nil
    ) -> PostgrestFilterBuilder {
        select(columns, head: head, count: count)
    }

    /// Inserts `values` (one `Encodable` object or an array of them): `POST /rest/v1/<table>`.
    ///
    /// Sends no `Prefer: return=` unless `returning` is given; chain `.select()` to get the
    /// inserted rows back. For an array body, `columns=` lists the union of keys (sorted) so
    /// PostgREST accepts objects with differing keys.
    ///
    /// - Throws: the encoder's error when `values` cannot be encoded.
    public func insert(
        _ values: some Encodable & Sendable,
        returning: PostgrestReturningOptions? = nil,
        count: CountOption? = nil
    ) throws -> PostgrestFilterBuilder {
        let body = try SupabaseJSON.makeEncoder().encode(values)
        let columns = try arrayColumns(body)
        state.withValue {
            $0.method = .post
            $0.body = body
            if let returning { $0.appendPreference("return=\(returning.rawValue)") }
            if let count { $0.appendPreference("count=\(count.rawValue)") }
            if let columns { $0.query.append(QueryItem(name: "columns", value: columns)) }
        }
        return PostgrestFilterBuilder(self)
    }

    /// Inserts `values`, updating rows that conflict: `POST` with
    /// `Prefer: resolution=merge-duplicates,return=representation`.
    ///
    /// - Parameters:
    ///   - onConflict: Comma-separated columns of a unique constraint (`on_conflict=`);
    ///     the primary key when `nil`.
    ///   - returning: Defaults to `.representation`, as in supabase-swift.
    ///   - ignoreDuplicates: Keep existing rows instead (`resolution=ignore-duplicates`).
    public func upsert(
        _ values: some Encodable & Sendable,
        onConflict: String? = nil,
        returning: PostgrestReturningOptions = .representation,
        count: CountOption? = nil,
        ignoreDuplicates: Bool = false
    ) throws -> PostgrestFilterBuilder {
        let body = try SupabaseJSON.makeEncoder().encode(values)
        let columns = try arrayColumns(body)
        state.withValue {
            $0.method = .post
            $0.body = body
            $0.appendPreference("resolution=\(ignoreDuplicates ? "ignore" : "merge")-duplicates")
            $0.appendPreference("return=\(returning.rawValue)")
            if let count { $0.appendPreference("count=\(count.rawValue)") }
            if let onConflict { $0.query.append(QueryItem(name: "on_conflict", value: onConflict)) }
            if let columns { $0.query.append(QueryItem(name: "columns", value: columns)) }
        }
        return PostgrestFilterBuilder(self)
    }

    /// Updates the rows matched by the filters that follow: `PATCH /rest/v1/<table>?…`.
    ///
    /// Sends `Prefer: return=representation` by default, as supabase-swift does. Always add
    /// a filter: Supabase rejects an unfiltered UPDATE (pg-safeupdate).
    public func update(
        _ values: some Encodable & Sendable,
        returning: PostgrestReturningOptions = .representation,
        count: CountOption? = nil
    ) throws -> PostgrestFilterBuilder {
        let body = try SupabaseJSON.makeEncoder().encode(values)
        state.withValue {
            $0.method = .patch
            $0.body = body
            $0.appendPreference("return=\(returning.rawValue)")
            if let count { $0.appendPreference("count=\(count.rawValue)") }
        }
        return PostgrestFilterBuilder(self)
    }

    /// Deletes the rows matched by the filters that follow: `DELETE /rest/v1/<table>?…`.
    ///
    /// Sends `Prefer: return=representation` by default, as supabase-swift does.
    public func delete(
        returning: PostgrestReturningOptions = .representation,
        count: CountOption? = nil
    ) -> PostgrestFilterBuilder {
        state.withValue {
            $0.method = .delete
            $0.appendPreference("return=\(returning.rawValue)")
            if let count { $0.appendPreference("count=\(count.rawValue)") }
        }
        return PostgrestFilterBuilder(self)
    }

    /// For an array body, the sorted union of the objects' keys, double-quoted as the
    /// reference requires (`"a","b"`); `nil` for an object body.
    private func arrayColumns(_ body: Data) throws -> String? {
        guard let rows = try JSONSerialization.jsonObject(with: body) as? [[String: Any]] else {
            return nil
        }
        let keys = Set(rows.flatMap(\.keys)).sorted()
        return keys.map { "\"\($0)\"" }.joined(separator: ",")
    }
}

/// Removes whitespace outside double quotes from a `select` list.
func cleanColumns(_ columns: String) -> String {
    var quoted = false
    var result = ""
    for character in columns {
        if character.isWhitespace, !quoted { continue }
        if character == "\"" { quoted.toggle() }
        result.append(character)
    }
    return result
}
