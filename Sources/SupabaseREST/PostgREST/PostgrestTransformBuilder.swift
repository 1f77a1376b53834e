import Foundation

/// Shapes the result: representation, order, paging, single object.
public class PostgrestTransformBuilder: PostgrestBuilder, @unchecked Sendable {
    /// Returns the affected rows of a mutation, shaped by `columns`: sets `select=` and turns
    /// `Prefer: return=…` into `return=representation` (adding it when absent).
    public func select(_ columns: String = "*") -> PostgrestTransformBuilder {
        state.withValue {
            $0.setQuery("select", cleanColumns(columns))
            if let prefer = $0.headers["Prefer"], !prefer.isEmpty {
                var items = prefer.components(separatedBy: ",")
                if let index = items.firstIndex(where: { $0.hasPrefix("return=") }) {
                    items[index] = "return=representation"
                } else {
                    items.append("return=representation")
                }
                $0.headers["Prefer"] = items.joined(separator: ",")
            } else {
                $0.headers["Prefer"] = "return=representation"
            }
        }
        return self
    }

    /// Orders by `column`. Successive calls merge into one `order` parameter
    /// (`order=a.asc.nullslast,b.desc.nullslast`), each with an explicit null placement, as
    /// supabase-swift sends it.
    ///
    /// - Parameters:
    ///   - ascending: `.asc` or `.desc`.
    ///   - nullsFirst: `.nullsfirst` or `.nullslast` (the default, even for descending).
    ///   - referencedTable: Order an embedded resource instead (`<table>.order=`).
    public func order(
        _ column: String,
        ascending: Bool = true,
        nullsFirst: Bool = false,
        referencedTable: String? = nil
    ) -> PostgrestTransformBuilder {
        let key = referencedTable.map { "\($0).order" } ?? "order"
        let item = "\(column).\(ascending ? "asc" : "desc").\(nullsFirst ? "nullsfirst" : "nullslast")"
        state.withValue {
            if let index = $0.query.firstIndex(where: { $0.name == key }) {
                $0.query[index].value += "," + item
            } else {
                $0.query.append(QueryItem(name: key, value: item))
            }
        }
        return self
    }

    /// Returns at most `count` rows (`limit=`).
    public func limit(_ count: Int, referencedTable: String? = nil) -> PostgrestTransformBuilder {
        state.withValue { $0.setQuery(referencedTable.map { "\($0).limit" } ?? "limit", String(count)) }
        return self
    }

    /// The labelled spelling of ``limit(_:referencedTable:)`` used by older code.
    public func limit(count: Int, referencedTable: String? = nil) -> PostgrestTransformBuilder {
        limit(count, referencedTable: referencedTable)
    }

    /// Returns rows `from...to` (0-based, inclusive): `offset=from&limit=to-from+1`.
    /// PostgREST has no stable order without ``order(_:ascending:nullsFirst:referencedTable:)``.
    public func range(from: Int, to: Int, referencedTable: String? = nil) -> PostgrestTransformBuilder {
        let prefix = referencedTable.map { "\($0)." } ?? ""
        state.withValue {
            $0.setQuery(prefix + "offset", String(from))
            $0.setQuery(prefix + "limit", String(to - from + 1))
        }
        return self
    }

    /// Returns one object instead of an array (`Accept: application/vnd.pgrst.object+json`).
    /// PostgREST answers 406 `PGRST116` unless exactly one row results, and rolls back a
    /// mutation that would affect another number of rows.
    public func single() -> PostgrestTransformBuilder {
        state.withValue { $0.headers["Accept"] = "application/vnd.pgrst.object+json" }
        return self
    }

    /// Like ``single()``, but no matching row is not an error: decode into an optional
    /// (`let row: Location? = try await ….maybeSingle().execute().value`) to get `nil`.
    /// Several rows still fail with `PGRST116`.
    public func maybeSingle() -> PostgrestTransformBuilder {
        state.withValue {
            $0.headers["Accept"] = "application/vnd.pgrst.object+json"
            $0.isMaybeSingle = true
        }
        return self
    }

    /// Returns the rows as CSV text (`Accept: text/csv`).
    public func csv() -> PostgrestTransformBuilder {
        state.withValue { $0.headers["Accept"] = "text/csv" }
        return self
    }
}
