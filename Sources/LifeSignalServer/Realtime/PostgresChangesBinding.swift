import Foundation
import LifeSignalBackend

/// One `postgres_changes` subscription of a joined channel: which table, which kinds of
/// change, and an optional filter `column=op.value`.
///
/// The filter is parsed with PostgREST's own grammar (`eq`, `neq`, `lt`, `lte`, `gt`, `gte`,
/// `in`, and also `like`, `ilike`, `is`), so it means exactly what the same filter means on
/// `/rest/v1`, and it is evaluated by the database together with the subscriber's policies.
struct PostgresChangesBinding: Sendable, Equatable {
    /// The server-assigned id clients use to route a change to their callback.
    var id: Int
    /// `INSERT`, `UPDATE`, `DELETE` or `*`.
    var event: String
    var schema: String
    var table: String
    var filterText: String?
    var filter: FilterNode?
    /// What the client asked for, echoed in the join reply with `id` added: clients compare
    /// the echo field by field with their own bindings and refuse the channel on a mismatch.
    var request: [String: JSONValue]

    enum Problem: Error, Equatable {
        case malformed(String)
    }

    static let events: Set<String> = ["INSERT", "UPDATE", "DELETE", "*"]

    /// Reads the join payload's `config.postgres_changes` entries. Ids are assigned by the
    /// caller, unique per server.
    static func parse(_ entries: [JSONValue], nextID: () -> Int) throws(Problem) -> [PostgresChangesBinding] {
        var bindings: [PostgresChangesBinding] = []
        for entry in entries {
            guard case .object(let fields) = entry else { throw .malformed("each postgres_changes entry must be an object") }
            let event = fields["event"]?.stringValue ?? "*"
            guard events.contains(event) else { throw .malformed("unknown event \"\(event)\" (expected INSERT, UPDATE, DELETE or *)") }
            let schema = fields["schema"]?.stringValue ?? "public"
            guard let table = fields["table"]?.stringValue, !table.isEmpty else {
                throw .malformed("a table is required (this server does not stream whole schemas)")
            }
            let filterText = fields["filter"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
            let filter = try filterText.map { (text) throws(Problem) -> FilterNode in try parseFilter(text) }
            bindings.append(
                PostgresChangesBinding(
                    id: nextID(), event: event, schema: schema, table: table, filterText: filterText, filter: filter, request: fields))
        }
        return bindings
    }

    /// `column=op.value`, as PostgREST reads the query-string pair `column` / `op.value`.
    static func parseFilter(_ text: String) throws(Problem) -> FilterNode {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw .malformed("filter \"\(text)\" is not of the form column=operator.value")
        }
        let column = String(text[..<equals])
        let condition = String(text[text.index(after: equals)...])
        let malformed = Problem.malformed("filter \"\(text)\" is not of the form column=operator.value")
        let plan: ReadPlan
        do { plan = try RESTQueryParser.readPlan([(column, condition)]) } catch { throw malformed }
        guard plan.filters.count == 1, let node = plan.filters.first, case .predicate = node else { throw malformed }
        return node
    }

    func accepts(_ kind: CapturedChange.Kind) -> Bool { event == "*" || event == kind.rawValue }

    /// The filter's column, checked against the table at join time.
    var filterColumn: String? {
        if case .predicate(let column, _, _, _) = filter { return column }
        return nil
    }

    /// The reply entry: the client's own fields plus the id.
    var replyJSON: String {
        var fields = request
        fields["id"] = .number(String(id))
        return JSONValue.object(fields).jsonText
    }
}
