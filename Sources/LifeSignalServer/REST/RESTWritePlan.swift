import Foundation
import LifeSignalBackend

/// A `/rest/v1` write, parsed from body, query string and `Prefer` (PostgREST's inserts, bulk inserts, upserts with `on_conflict`, updates and deletes).
struct WritePlan {
    enum Kind { case insert, update, delete }
    enum Return: String {
        case minimal, representation
        case headersOnly = "headers-only"
    }
    enum Resolution: String {
        case mergeDuplicates = "merge-duplicates"
        case ignoreDuplicates = "ignore-duplicates"
    }

    var kind: Kind
    var rows: [[String: JSONValue]] = []
    /// Columns written, in order: the payload's keys, or `columns=`.
    var columns: [String] = []
    var filters: [FilterNode] = []
    var select: [SelectItem] = [.all]
    var returning: Return = .minimal
    var resolution: Resolution?
    var onConflict: [String]?
    var missingDefault = false
    var countExact = false
}

/// A JSON value from a request body. Decoded strictly (`true` is never the number 1), and
/// objects and arrays are kept as compact JSON text for `json`/`jsonb` columns.
indirect enum JSONValue: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? container.decode(Int64.self) {
            self = .number(String(integer))
        } else if let double = try? container.decode(Double.self) {
            self = .number(String(double))
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// The value as JSON text.
    var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .string(let text): JSONRenderer.quote(text)
        case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let fields):
            "{" + fields.keys.sorted().map { JSONRenderer.quote($0) + ":" + (fields[$0]?.jsonText ?? "null") }.joined(separator: ",") + "}"
        }
    }
}

enum WritePlanParser {
    static func parse(
        kind: WritePlan.Kind, pairs: [(String, String)], preferences: [String], body: Data,
        limits: QueryLimits = .standard
    ) throws(RESTError) -> WritePlan {
        var plan = WritePlan(kind: kind)
        var columnsParameter: [String]?
        for (key, value) in pairs {
            switch key {
            case "select": plan.select = try RESTQueryParser.select(value, limits: limits)
            case "columns": columnsParameter = try names(value, part: "columns", limit: limits.maxSelectItems)
            case "on_conflict": plan.onConflict = try names(value, part: "on_conflict", limit: limits.maxSelectItems)
            default: continue
            }
        }
        plan.filters = try RESTQueryParser.filters(pairs, limits: limits)
        for preference in preferences {
            let parts = preference.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            switch parts[0] {
            case "return": plan.returning = WritePlan.Return(rawValue: parts[1]) ?? plan.returning
            case "resolution": plan.resolution = plan.resolution ?? WritePlan.Resolution(rawValue: parts[1])
            case "missing": plan.missingDefault = parts[1] == "default"
            case "count": plan.countExact = parts[1] == "exact"
            default: continue
            }
        }
        guard kind != .delete else { return plan }
        let payload: JSONValue
        do { payload = try JSONDecoder().decode(JSONValue.self, from: body) } catch {
            throw RESTError(status: .badRequest, code: .invalidBody, message: "Empty or invalid json")
        }
        var objects: [[String: JSONValue]] = []
        switch payload {
        case .object(let fields): objects = [fields]
        case .array(let items):
            for item in items {
                guard case .object(let fields) = item else {
                    throw RESTError(status: .badRequest, code: .invalidBody, message: "All object keys must match")
                }
                objects.append(fields)
            }
        default:
            throw RESTError(status: .badRequest, code: .invalidBody, message: "Empty or invalid json")
        }
        guard objects.count <= limits.maxWriteRows else {
            throw RESTError(
                status: .contentTooLarge, code: .bodyTooLarge, message: "Too many rows in one request",
                details: "\(objects.count) rows were sent; at most \(limits.maxWriteRows) are accepted at once",
                hint: "Send the rows in several requests")
        }
        plan.rows = objects
        if let columnsParameter {
            plan.columns = columnsParameter
        } else if let first = objects.first {
            let keys = Set(first.keys)
            guard objects.allSatisfy({ Set($0.keys) == keys }) else {
                throw RESTError(status: .badRequest, code: .invalidBody, message: "All object keys must match")
            }
            plan.columns = first.keys.sorted()
        }
        return plan
    }

    static func names(_ text: String, part: String, limit: Int) throws(RESTError) -> [String] {
        let items = text.utf8.split(separator: UInt8(ascii: ","))
        guard items.count <= limit else { throw RESTError.limit(part, "more than \(limit) names") }
        return try items.map { (raw) throws(RESTError) -> String in
            var name = Substring(raw).trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
            guard RESTQueryParser.isIdentifier(Substring(name)) else {
                throw RESTError.parse(part, text, "unexpected \"\(name)\" expecting a column name")
            }
            return name
        }
    }
}
