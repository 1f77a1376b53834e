import Foundation
import LifeSignalTestSupport
import Testing

/// A JSON row as `/rest/v1` returns it.
typealias MatrixRow = [String: any Sendable]

/// The exposed tables as the server describes them to the service role (`GET /rest/v1/`,
/// PostgREST's OpenAPI): every table any role can reach, its columns and its primary key.
struct ExposedTables: Sendable {
    struct Table: Sendable {
        let name: String
        let columns: [String]
        let key: [String]
    }

    let tables: [String: Table]

    static func load(_ server: TestServer) async throws -> ExposedTables {
        let reply = try await server.request("GET", "/rest/v1/", apiKey: server.serviceKey, bearer: server.serviceKey)
        let document = try #require(reply.json, "GET /rest/v1/: \(reply.status) \(reply.text)")
        let definitions = try #require(document["definitions"] as? [String: any Sendable])
        var tables: [String: Table] = [:]
        for (name, definition) in definitions {
            let properties = (definition as? [String: any Sendable])?["properties"] as? [String: any Sendable] ?? [:]
            let key = properties.compactMap { column, property in
                ((property as? [String: any Sendable])?["description"] as? String)?.contains("<pk/>") == true ? column : nil
            }
            tables[name] = Table(name: name, columns: properties.keys.sorted(), key: key.sorted())
        }
        return ExposedTables(tables: tables)
    }
}

/// Every exposed row, read with the service role: what the model's scopes are judged against
/// and what a refused write must leave as it was.
struct MatrixSnapshot: Sendable {
    let rows: [String: [MatrixRow]]
    /// viewer id → the ids of the people the viewer looks after.
    let dependentsOf: [String: Set<String>]

    static func take(_ server: TestServer, tables: ExposedTables) async throws -> MatrixSnapshot {
        var rows: [String: [MatrixRow]] = [:]
        try await withThrowingTaskGroup(of: (String, [MatrixRow]).self) { group in
            for name in tables.tables.keys {
                group.addTask { (name, try await Self.read(server, name, query: "select=*")) }
            }
            for try await (name, read) in group { rows[name] = read }
        }
        var dependents: [String: Set<String>] = [:]
        for contact in rows["contacts"] ?? [] where contact["is_dependent"] as? Bool == true {
            if let viewer = contact["user_id"] as? String, let other = contact["contact_id"] as? String {
                dependents[viewer, default: []].insert(other)
            }
        }
        return MatrixSnapshot(rows: rows, dependentsOf: dependents)
    }

    /// A service-role read of `table` (never more than the 1,000 rows of one page here).
    static func read(_ server: TestServer, _ table: String, query: String) async throws -> [MatrixRow] {
        let reply = try await server.request("GET", "/rest/v1/\(table)?\(query)", apiKey: server.serviceKey, bearer: server.serviceKey)
        return try #require(reply.status == 200 ? reply.jsonArray : nil, "service read of \(table)?\(query): \(reply.status) \(reply.text)")
    }

    /// Whether `scope` admits `row` of `table` for `viewer` (a user id, or `nil` for anon).
    func admits(_ scope: RowScope, _ row: MatrixRow, viewer: String?) -> Bool {
        switch scope {
        case .every:
            return true
        case .own(let column):
            return viewer != nil && (row[column] as? String)?.lowercased() == viewer
        case .dependents(let column):
            guard let viewer, let owner = (row[column] as? String)?.lowercased() else { return false }
            return dependentsOf[viewer]?.contains(owner) == true
        case .published:
            return row["status"] as? String == "published" && (row["deleted_at"] == nil || row["deleted_at"] is NSNull)
        case .parent(let column, let table, let scopes):
            guard let id = row[column] as? String, let parent = rows[table]?.first(where: { $0["id"] as? String == id }) else { return false }
            return scopes.contains { admits($0, parent, viewer: viewer) }
        }
    }

    /// The rows of `table` that `rule` admits for `viewer`, by key.
    func expected(_ table: ExposedTables.Table, _ rule: ReadRule, viewer: String?) -> [String: MatrixRow] {
        var admitted: [String: MatrixRow] = [:]
        for row in rows[table.name] ?? [] where rule.rows.contains(where: { admits($0, row, viewer: viewer) }) {
            admitted[MatrixSnapshot.key(row, table)] = row
        }
        return admitted
    }

    static func key(_ row: MatrixRow, _ table: ExposedTables.Table) -> String {
        table.key.map { "\($0)=\(MatrixSnapshot.text(row[$0]))" }.joined(separator: ",")
    }

    /// `?a=eq.1&b=eq.2` naming one row by its key.
    static func filter(_ row: MatrixRow, _ table: ExposedTables.Table) -> String {
        table.key.map { "\($0)=eq.\(encode(text(row[$0])))" }.joined(separator: "&")
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }

    /// A JSON value as comparable text (numbers, booleans and `null` as JSON writes them).
    static func text(_ value: (any Sendable)?) -> String {
        switch value {
        case nil, is NSNull: "null"
        case let string as String: string
        case let number as NSNumber: number.stringValue
        case let value?:
            (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
        }
    }

    /// A whole row as text, keys sorted: two reads of an unchanged row compare equal.
    static func text(row: MatrixRow) -> String {
        row.keys.sorted().map { "\($0)=\(text(row[$0]))" }.joined(separator: ";")
    }
}
