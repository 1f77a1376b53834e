import Foundation
import LifeSignalTestSupport
import Testing

/// The `/rest/v1` cells: every exposed table × verb × actor, each expectation from
/// ``AccessModel``, every refusal checked against a service-role read.
struct RESTMatrixRunner: Sendable {
    let fixture: MatrixFixture
    let exposed: ExposedTables
    let snapshot: MatrixSnapshot
    /// Refills each person's request budget between reads and writes (the backend's clock
    /// drives the rate limiter: 200 in a burst).
    let refill: @Sendable () -> Void

    var tables: [(model: TableModel, table: ExposedTables.Table)] {
        AccessModel.tables.compactMap { model in exposed.tables[model.name].map { (model, $0) } }
    }

    /// Reads first, all at once (nothing changes under them), then writes.
    func run() async -> MatrixResult {
        var reads: [@Sendable () async -> MatrixResult] = []
        var writes: [@Sendable () async -> MatrixResult] = []
        for (model, table) in tables {
            for actor in MatrixActor.allCases {
                reads.append(MatrixResult.guarded("\(table.name) read \(actor)") { try await self.reads(model, table, actor) })
                writes.append(
                    MatrixResult.guarded("\(table.name) write \(actor)") {
                        model.mayWrite(actor) ? try await self.allowedWrites(model, table, actor) : try await self.refusedWrites(model, table, actor)
                    })
            }
        }
        var result = await MatrixResult.concurrently(reads)
        refill()
        result.add(await MatrixResult.concurrently(writes))
        return result
    }

    /// What `actor` should read of `table`, by key, and the columns it should see.
    func expectation(_ model: TableModel, _ table: ExposedTables.Table, _ actor: MatrixActor) -> (rows: [String: MatrixRow], columns: [String]) {
        let rule = model.read(for: actor)
        return (snapshot.expected(table, rule, viewer: fixture.id(actor)), table.columns.filter { !rule.hidden.contains($0) })
    }

    // MARK: select and count

    func reads(_ model: TableModel, _ table: ExposedTables.Table, _ actor: MatrixActor) async throws -> MatrixResult {
        var result = MatrixResult()
        let (expected, columns) = expectation(model, table, actor)
        let label = "\(table.name) × select × \(actor)"
        let explicit = try await fixture.send(actor, "GET", "/rest/v1/\(table.name)?select=\(columns.joined(separator: ","))")
        result.cell(label, selectProblem(explicit, expected: expected, columns: columns, table: table))
        // `select=*`: refused, or no row past the expected ones and no hidden column's value.
        let star = try await fixture.send(actor, "GET", "/rest/v1/\(table.name)?select=*")
        if star.status == 200, let rows = star.jsonArray {
            let extra = rows.map { MatrixSnapshot.key($0, table) }.filter { expected[$0] == nil }
            let leaked = rows.flatMap { row in row.keys.filter { !columns.contains($0) && !(row[$0] is NSNull) } }
            result.cell("\(label) (select=*)", extra.isEmpty && leaked.isEmpty ? nil : "extra rows \(extra), hidden columns \(Set(leaked).sorted())")
        } else {
            result.cell("\(label) (select=*)", (400..<500).contains(star.status) ? nil : "\(star.status) \(star.text.prefix(200))")
        }
        // A hidden column is no filter either: filtering on it finds nothing or is refused.
        for hidden in model.read(for: actor).hidden where table.columns.contains(hidden) {
            let probe = try await fixture.send(actor, "GET", "/rest/v1/\(table.name)?select=\(table.key.joined(separator: ","))&\(hidden)=not.is.null")
            let found = probe.status == 200 ? probe.jsonArray?.count ?? -1 : 0
            result.cell(
                "\(label) (filter on hidden \(hidden))",
                (400..<500).contains(probe.status) || (probe.status == 200 && found == 0)
                    ? nil : "\(probe.status), \(found) rows: the hidden column answers a filter")
        }
        let count = try await fixture.send(actor, "GET", "/rest/v1/\(table.name)?select=\(table.key[0])&limit=1", headers: ["Prefer": "count=exact"])
        let total = count.header("content-range")?.split(separator: "/").last.flatMap { Int($0) }
        let countProblem: String? =
            if expected.isEmpty {
                isRefusal(count.status) || ((200..<300).contains(count.status) && total == 0)
                    ? nil : "\(count.status) total \(String(describing: total)), expected none"
            } else {
                (200..<300).contains(count.status) && total == expected.count
                    ? nil : "\(count.status) total \(String(describing: total)), expected \(expected.count)"
            }
        result.cell("\(table.name) × count × \(actor)", countProblem)
        return result
    }

    func selectProblem(_ reply: TestServer.Reply, expected: [String: MatrixRow], columns: [String], table: ExposedTables.Table) -> String? {
        if expected.isEmpty {
            if isRefusal(reply.status) { return nil }
            return reply.status == 200 && reply.jsonArray?.isEmpty == true ? nil : "\(reply.status), expected no row: \(reply.text.prefix(300))"
        }
        guard reply.status == 200, let rows = reply.jsonArray else { return "\(reply.status), expected \(expected.count) rows: \(reply.text.prefix(300))" }
        var got: [String: MatrixRow] = [:]
        for row in rows { got[MatrixSnapshot.key(row, table)] = row }
        let missing = Set(expected.keys).subtracting(got.keys)
        let extra = Set(got.keys).subtracting(expected.keys)
        if !missing.isEmpty || !extra.isEmpty || rows.count != expected.count {
            return "rows differ: missing \(missing.sorted()), extra \(extra.sorted())"
        }
        for (key, row) in got {
            if Set(row.keys) != Set(columns) { return "columns \(row.keys.sorted()), expected \(columns)" }
            let wrong = columns.filter { MatrixSnapshot.text(row[$0]) != MatrixSnapshot.text(expected[key]?[$0]) }
            if !wrong.isEmpty { return "row \(key): \(wrong) differ from the service role's read" }
        }
        return nil
    }

    // MARK: refused writes

    /// The row a refused write aims at, and its text now.
    func target(_ model: TableModel, _ table: ExposedTables.Table) throws -> MatrixRow {
        let owner = fixture.id(model.target.owner)
        return try #require(
            snapshot.rows[table.name]?.first { snapshot.admits(model.target.scope, $0, viewer: owner) },
            "\(table.name): the fixture has no target row")
    }

    func current(_ table: ExposedTables.Table, _ row: MatrixRow) async throws -> String? {
        try await MatrixSnapshot.read(fixture.server, table.name, query: "select=*&" + MatrixSnapshot.filter(row, table)).first.map {
            MatrixSnapshot.text(row: $0)
        }
    }

    func refusedWrites(_ model: TableModel, _ table: ExposedTables.Table, _ actor: MatrixActor) async throws -> MatrixResult {
        var result = MatrixResult()
        let person = fixture.id(.person) ?? ""
        let me = fixture.id(actor)
        let isContent = model.writers.contains(.editor)
        // The likeliest attempt: content under my own name; anything else written into the
        // person's data, with me as the second party.
        let fresh = try ThrowawayRow.make(
            table.name, owner: isContent ? (me ?? person) : person, other: me ?? (fixture.id(.stranger) ?? ""),
            snapshot: snapshot)
        // The row may exist already (the responder's own response to the person's alert):
        // then it must stay as it was.
        let existing = try await MatrixSnapshot.read(fixture.server, table.name, query: Self.filter(fresh, table)).map { MatrixSnapshot.text(row: $0) }
        let insert = try await fixture.send(actor, "POST", "/rest/v1/\(table.name)", headers: ["Prefer": "return=representation"], json: fresh.row)
        let inserted = try await MatrixSnapshot.read(fixture.server, table.name, query: Self.filter(fresh, table)).map { MatrixSnapshot.text(row: $0) }
        result.cell(
            "\(table.name) × insert × \(actor)",
            Self.isPermissionDenied(insert) && inserted == existing
                ? nil : "\(insert.status) \(insert.text.prefix(200)); rows before \(existing.count), now \(inserted.count)")

        let target = try target(model, table)
        let before = MatrixSnapshot.text(row: target)
        var changed = target as [String: Any]
        changed[fresh.change.column] = fresh.change.value
        let filter = MatrixSnapshot.filter(target, table)
        let conflict = fresh.conflict ?? table.key.joined(separator: ",")
        let attempts: [(Verb, String, String, [String: String], Any?)] = [
            (
                .upsert, "POST", "/rest/v1/\(table.name)?on_conflict=\(conflict)",
                ["Prefer": "resolution=merge-duplicates,return=representation"], changed
            ),
            (.put, "PUT", "/rest/v1/\(table.name)?\(filter)", ["Prefer": "return=representation"], changed),
            (.patch, "PATCH", "/rest/v1/\(table.name)?\(filter)", ["Prefer": "return=representation"], [fresh.change.column: fresh.change.value]),
            (.delete, "DELETE", "/rest/v1/\(table.name)?\(filter)", ["Prefer": "return=representation"], nil),
        ]
        for (verb, method, path, headers, body) in attempts {
            let reply = try await fixture.send(actor, method, path, headers: headers, json: body)
            let after = try await current(table, target)
            // PATCH and DELETE under a row policy that admits no row answer 2xx with no row.
            let quietlyNothing =
                (verb == .patch || verb == .delete) && (200..<300).contains(reply.status)
                && (reply.body.isEmpty || reply.jsonArray?.isEmpty == true)
            let problem: String? =
                (Self.isPermissionDenied(reply) || quietlyNothing) && after == before
                ? nil : "\(reply.status) \(reply.text.prefix(200)); row \(after == before ? "unchanged" : "CHANGED: \(after ?? "deleted")")"
            result.cell("\(table.name) × \(verb) × \(actor)", problem)
        }
        return result
    }

    /// `?…` naming a fresh row: by its key, or by the column an upsert resolves on when the
    /// database generates the key.
    static func filter(_ fresh: ThrowawayRow, _ table: ExposedTables.Table) -> String {
        let columns = fresh.conflict.map { [$0] } ?? table.key
        return columns.map { "\($0)=eq.\(MatrixSnapshot.encode(fresh.row[$0] as? String ?? ""))" }.joined(separator: "&")
    }

    /// PostgREST's refusal of a write: 401 (anon) or 403, code `42501` — no grant for the
    /// verb, or a row that breaks a row policy.
    static func isPermissionDenied(_ reply: TestServer.Reply) -> Bool {
        isRefusal(reply.status) && reply.json?["code"] as? String == "42501"
    }

    // MARK: allowed writes

    /// Insert, upsert, PUT, PATCH and DELETE of one throwaway row, each checked to take effect.
    func allowedWrites(_ model: TableModel, _ table: ExposedTables.Table, _ actor: MatrixActor) async throws -> MatrixResult {
        var result = MatrixResult()
        let fresh: ThrowawayRow =
            if table.name == "users" {
                try await ThrowawayRow.account(fixture, phone: MatrixFixture.throwawayPhones[0])
            } else if actor == .editor {
                try ThrowawayRow.make(table.name, owner: fixture.id(.editor) ?? "", other: fixture.id(.editor) ?? "", snapshot: snapshot)
            } else {
                try ThrowawayRow.make(table.name, owner: fixture.spareA, other: fixture.spareB, snapshot: snapshot)
            }
        func label(_ verb: Verb) -> String { "\(table.name) × \(verb) × \(actor)" }
        let insert = try await fixture.send(actor, "POST", "/rest/v1/\(table.name)", headers: ["Prefer": "return=representation"], json: fresh.row)
        let stored = insert.jsonArray?.first
        result.cell(label(.insert), insert.status == 201 && stored != nil ? nil : "\(insert.status) \(insert.text.prefix(300))")
        guard let stored else { return result }
        let filter = MatrixSnapshot.filter(stored, table)
        let server = fixture.server
        func read() async throws -> MatrixRow? {
            let rows = try await MatrixSnapshot.read(server, table.name, query: "select=*&\(filter)")
            return rows.first
        }
        let original = try await read()
        func changed(_ reply: TestServer.Reply, from before: MatrixRow?) async throws -> String? {
            let now = try await read()
            guard (200..<300).contains(reply.status) else { return "\(reply.status) \(reply.text.prefix(300))" }
            return MatrixSnapshot.text(now?[fresh.change.column]) != MatrixSnapshot.text(before?[fresh.change.column]) ? nil : "no change took effect"
        }
        var upserted = fresh.row
        upserted[fresh.change.column] = fresh.change.value
        if fresh.conflict == nil { for (key, value) in stored where table.key.contains(key) { upserted[key] = value } }
        let upsert = try await fixture.send(
            actor, "POST", "/rest/v1/\(table.name)?on_conflict=\(fresh.conflict ?? table.key.joined(separator: ","))",
            headers: ["Prefer": "resolution=merge-duplicates,return=representation"], json: upserted)
        result.cell(label(.upsert), try await changed(upsert, from: original))
        if !model.inapplicableForWriters.contains(.put) {
            let before = try await read()
            var put = (before ?? [:]) as [String: Any]
            put[fresh.change.column] = original?[fresh.change.column] ?? NSNull()
            let reply = try await fixture.send(actor, "PUT", "/rest/v1/\(table.name)?\(filter)", headers: ["Prefer": "return=representation"], json: put)
            result.cell(label(.put), try await changed(reply, from: before))
        }
        let beforePatch = try await read()
        // After the PUT the row holds its original value again; without one, the upsert's.
        let patchValue: Any = model.inapplicableForWriters.contains(.put) ? original?[fresh.change.column] ?? NSNull() : fresh.change.value
        let patch = try await fixture.send(
            actor, "PATCH", "/rest/v1/\(table.name)?\(filter)", headers: ["Prefer": "return=representation"],
            json: [fresh.change.column: patchValue])
        result.cell(label(.patch), try await changed(patch, from: beforePatch))
        let delete = try await fixture.send(actor, "DELETE", "/rest/v1/\(table.name)?\(filter)", headers: ["Prefer": "return=representation"])
        let gone = try await read() == nil
        result.cell(
            label(.delete),
            (200..<300).contains(delete.status) && gone ? nil : "\(delete.status) \(delete.text.prefix(200)); row \(gone ? "gone" : "still there")")
        return result
    }
}
