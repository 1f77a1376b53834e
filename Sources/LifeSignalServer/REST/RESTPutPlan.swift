import Foundation
import LifeSignalBackend

/// `PUT /rest/v1/<table>?<pk>=eq.<value>…`: PostgREST's single-row upsert by primary key, turned
/// into the equivalent insert plan — `ON CONFLICT (<primary key>) DO UPDATE` — once the
/// request has proved it names exactly one row.
enum RESTPutPlan {
    static func upsert(from parsed: WritePlan, pairs: [(String, String)], table: TableSchema) throws(RESTError) -> WritePlan {
        if pairs.contains(where: { $0.0 == "limit" || $0.0 == "offset" }) {
            throw RESTError(status: .badRequest, code: .putWithLimits, message: "limit/offset querystring parameters are not allowed for PUT")
        }
        let key = table.columns.filter(\.isPrimaryKey).map(\.name)
        var filtered: [String: String] = [:]
        for filter in parsed.filters {
            guard case .predicate(let column, false, .eq, .scalar(let value)) = filter, filtered[column] == nil else { throw invalidFilters }
            filtered[column] = value
        }
        guard !key.isEmpty, Set(filtered.keys) == Set(key) else { throw invalidFilters }
        guard parsed.rows.count == 1, let row = parsed.rows.first,
            key.allSatisfy({ name in row[name].map { text(of: $0) } == filtered[name] })
        else {
            throw RESTError(status: .badRequest, code: .putKeyMismatch, message: "Payload values do not match URL in primary key column(s)")
        }
        var plan = parsed
        plan.filters = []
        plan.resolution = .mergeDuplicates
        plan.onConflict = key
        return plan
    }

    private static var invalidFilters: RESTError {
        RESTError(status: .methodNotAllowed, code: .invalidPut, message: "Filters must include all and only primary key columns with 'eq' operators")
    }

    /// A payload value as the text a filter compares it with.
    private static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let text), .number(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null, .array, .object: nil
        }
    }
}
