import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// What the change log keeps of a deleted row: enough for every read policy to be judged, and
/// nothing else (docs/security.md, "Realtime").
@Suite("Realtime change log: deleted rows")
struct RealtimeDeleteCaptureTests {
    /// The names an SQL expression mentions that could be columns of `table`: unqualified
    /// names and names qualified by the table itself (`alerts.user_id`); `c.user_id` is
    /// another table's column.
    static func mentionedColumns(_ expression: String, table: String) -> Set<String> {
        let pattern = /([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)/
        var names: Set<String> = []
        for match in expression.matches(of: pattern) {
            if let qualifier = match.output.1, let name = match.output.2 {
                if qualifier == table { names.insert(String(name)) }
            } else if let name = match.output.3 {
                names.insert(String(name))
            }
        }
        return names
    }

    @Test("every column a published table's read policy mentions is kept when a row is deleted")
    func policiesAreCovered() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        var checked = 0
        for (table, key) in ChangeCapture.publishedTables {
            let kept = try #require(ChangeCapture.deletedRowColumns[table], "\(table) declares no deleted-row columns")
            let columns = Set(
                try await test.backend.database.query(SQL("SELECT name FROM pragma_table_info($1)", bindings: [.text(table)]))
                    .map { try $0.string("name") })
            #expect(!columns.isEmpty, "\(table) has no columns")
            #expect(Set(kept).isSubset(of: columns), "\(table) keeps columns it does not have")
            let policy = try #require(Schema.policy(for: table), "\(table) is published without a policy")
            for rule in policy.rules where rule.command == .select {
                let needed = Self.mentionedColumns(rule.using ?? "", table: table).intersection(columns)
                #expect(
                    needed.isSubset(of: Set(key + kept)),
                    "\(rule.name) reads \(needed.subtracting(key + kept).sorted()) of a deleted \(table) row, which the log does not keep")
                checked += 1
            }
        }
        #expect(checked >= ChangeCapture.publishedTables.count)
    }

    @Test("a delete logs the key and the policy columns, never the row's other contents", arguments: Engine.allCases)
    func logKeepsOnlyPolicyColumns(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let person = try await test.signIn("+15550001001")
        let rows = DeleteFixtures(database: test.backend.database, now: test.clock.now)
        let document = try await rows.document(of: person)
        let alert = try await rows.alert(of: person)
        try await rows.delete(document)
        try await rows.delete(alert)
        try await test.backend.database.query(SQL("DELETE FROM users WHERE id = $1", bindings: [.uuid(person.user.id.rawValue)]))
        let logged = try await test.backend.database.query(
            """
            SELECT table_name, old_row FROM lifesignal_realtime_changes WHERE kind = 'DELETE' ORDER BY id
            """)
        var seen: [String: Set<String>] = [:]
        for row in logged {
            let text = try #require(row.optionalString("old_row"), "a delete logged without its old row")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            seen[try row.string("table_name")] = Set(object.keys)
            if try row.string("table_name") == "documents" {
                #expect(object["owner_id"] as? String == person.user.id.description)
                #expect(object["path"] as? String == "users/\(person.user.id.description)/notes/first")
            }
        }
        #expect(seen["documents"] == ["path", "owner_id"])
        #expect(seen["alerts"] == ["id", "user_id"])
        #expect(seen["users"] == ["id"])
        // Nothing but deletes keeps an old row.
        let others = try await test.backend.database.query(
            """
            SELECT count(*) AS n FROM lifesignal_realtime_changes WHERE kind <> 'DELETE' AND old_row IS NOT NULL
            """)
        #expect(try others.first?.int("n") == 0)
    }
}
