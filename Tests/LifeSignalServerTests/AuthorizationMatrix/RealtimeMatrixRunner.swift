import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The Realtime cells: every published table × INSERT, UPDATE, DELETE × actor. Each actor
/// subscribes to every table (a channel each) on one socket; the service role then inserts,
/// updates and deletes a throwaway row of the person's in every table, and each actor must
/// hear exactly the changes the model lets it read — with only the columns it may read, and a
/// DELETE with only the key (docs/security.md, "Realtime"). A published location written after
/// each round ends it, as in `RealtimeDeleteTests` (``DeleteFixtures/marker(_:)``).
struct RealtimeMatrixRunner: Sendable {
    let fixture: MatrixFixture
    let exposed: ExposedTables

    struct Listener: Sendable {
        let actor: MatrixActor
        let socket: RealtimeTestSocket
        /// The tables whose channel the server refused to join.
        let refused: Set<String>
        /// The tables with a second channel filtered on a column hidden from the actor.
        let probes: Set<String>
    }

    /// A change as heard: table, type and row key.
    struct Heard: Hashable, CustomStringConvertible {
        let table: String, type: String, key: String
        /// Heard on the channel filtered on a hidden column.
        var probe = false
        var description: String { "\(type) \(table)(\(key))\(probe ? " through a filter on a hidden column" : "")" }
    }

    static let probeTopic = "realtime:matrix-hidden-"

    var tables: [(model: TableModel, table: ExposedTables.Table)] {
        AccessModel.tables.filter(\.realtime).compactMap { model in exposed.tables[model.name].map { (model, $0) } }
    }

    func run() async throws -> MatrixResult {
        var result = MatrixResult()
        var listeners: [Listener] = []
        for actor in MatrixActor.allCases { listeners.append(try await listen(actor, result: &result)) }
        defer { for listener in listeners { Task { await listener.socket.close() } } }
        let marker = DeleteFixtures(database: fixture.test.backend.database, now: fixture.test.clock.now)
        let account = try await ThrowawayRow.account(fixture, phone: MatrixFixture.throwawayPhones[1])
        _ = try await round("Matrix marker prep", listeners, marker: marker, result: &result)

        let prior = try await MatrixSnapshot.take(fixture.server, tables: exposed)
        var rows: [(TableModel, ExposedTables.Table, ThrowawayRow, MatrixRow)] = []
        for (model, table) in tables {
            let fresh =
                table.name == "users"
                ? account
                : try ThrowawayRow.make(
                    table.name, owner: fixture.id(model.writers.contains(.editor) ? .editor : .person) ?? "",
                    other: fixture.id(.stranger) ?? "", snapshot: prior)
            let reply = try await fixture.send(.service, "POST", "/rest/v1/\(table.name)", headers: ["Prefer": "return=representation"], json: fresh.row)
            let stored = try #require(reply.status == 201 ? reply.jsonArray?.first : nil, "realtime insert into \(table.name): \(reply.status) \(reply.text)")
            rows.append((model, table, fresh, stored))
            if model.writers.contains(.editor) {
                // A draft too: it reaches editors and the service role only.
                var draft = try ThrowawayRow.make(table.name, owner: fixture.id(.editor) ?? "", other: "", snapshot: prior)
                draft.row["status"] = "draft"
                let reply = try await fixture.send(.service, "POST", "/rest/v1/\(table.name)", headers: ["Prefer": "return=representation"], json: draft.row)
                let stored = try #require(reply.status == 201 ? reply.jsonArray?.first : nil, "realtime draft in \(table.name): \(reply.status) \(reply.text)")
                rows.append((model, table, draft, stored))
            }
        }
        let heardInserts = try await round("Matrix marker insert", listeners, marker: marker, result: &result)
        let afterInsert = try await MatrixSnapshot.take(fixture.server, tables: exposed)
        check("INSERT", heardInserts, rows: rows, snapshot: afterInsert, listeners: listeners, result: &result)

        for (_, table, fresh, stored) in rows {
            let reply = try await fixture.send(
                .service, "PATCH", "/rest/v1/\(table.name)?\(MatrixSnapshot.filter(stored, table))",
                json: [fresh.change.column: fresh.change.value])
            #expect((200..<300).contains(reply.status), "realtime update of \(table.name): \(reply.status) \(reply.text)")
        }
        let heardUpdates = try await round("Matrix marker update", listeners, marker: marker, result: &result)
        let afterUpdate = try await MatrixSnapshot.take(fixture.server, tables: exposed)
        check("UPDATE", heardUpdates, rows: rows, snapshot: afterUpdate, listeners: listeners, result: &result)

        // Deletes go to those who could read the row before it went: judged on this snapshot.
        for (_, table, _, stored) in rows.reversed() {
            let reply = try await fixture.send(.service, "DELETE", "/rest/v1/\(table.name)?\(MatrixSnapshot.filter(stored, table))")
            #expect((200..<300).contains(reply.status), "realtime delete of \(table.name): \(reply.status) \(reply.text)")
        }
        let heardDeletes = try await round("Matrix marker delete", listeners, marker: marker, result: &result)
        check("DELETE", heardDeletes, rows: rows, snapshot: afterUpdate, listeners: listeners, result: &result)
        return result
    }

    /// One socket for `actor`, a channel per table. A refused join is a deny; the model
    /// must then give the actor no row of that table.
    func listen(_ actor: MatrixActor, result: inout MatrixResult) async throws -> Listener {
        let socket = try await RealtimeTestSocket.connect(fixture.server, query: "apikey=\(fixture.server.anonKey)&vsn=1.0.0")
        let token: String? = actor == .service ? fixture.server.serviceKey : fixture.tokens[actor]
        var refused: Set<String> = []
        for (index, (model, table)) in tables.enumerated() {
            let payload = try await RealtimeTests.join(socket, topic: "realtime:matrix-\(table.name)", table: table.name, token: token, ref: "\(index + 1)")
            let joined = payload["status"] as? String == "ok"
            if !joined { refused.insert(table.name) }
            let mustJoin = !model.read(for: actor).rows.isEmpty || table.name == "locations"
            result.cell("\(table.name) × join × \(actor)", joined || !mustJoin ? nil : "refused, but the model lets \(actor) read rows: \(payload)")
        }
        // A hidden column is no filter either: a channel filtered on the value it holds (the
        // editor as `created_by`) is refused or hears nothing, or the filter would answer what
        // the record leaves out.
        var probes: Set<String> = []
        for (index, (model, table)) in tables.enumerated() {
            let rule = model.read(for: actor)
            guard !rule.rows.isEmpty, let hidden = table.columns.first(where: rule.hidden.contains) else { continue }
            _ = try await RealtimeTests.join(
                socket, topic: Self.probeTopic + table.name, table: table.name,
                filter: "\(hidden)=eq.\(fixture.id(.editor) ?? "")", token: token, ref: "p\(index)")
            probes.insert(table.name)
        }
        return Listener(actor: actor, socket: socket, refused: refused, probes: probes)
    }

    /// Writes a marker and returns what each listener heard before it, checking on the way
    /// that no DELETE carries more than the key and no change carries a hidden column.
    func round(
        _ label: String, _ listeners: [Listener], marker: DeleteFixtures,
        result: inout MatrixResult
    ) async throws -> [MatrixActor: [Heard: MatrixRow]] {
        try await marker.marker(label)
        var heard: [MatrixActor: [Heard: MatrixRow]] = [:]
        for listener in listeners {
            var changes: [Heard: MatrixRow] = [:]
            while true {
                let frame = try await listener.socket.nextObject(where: { RealtimeTests.change($0) != nil })
                let data = try #require(RealtimeTests.change(frame))
                let name = data["table"] as? String ?? ""
                let type = data["type"] as? String ?? ""
                let record = data["record"] as? MatrixRow
                let old = data["old_record"] as? MatrixRow
                let markerName = (record?["name"] as? String) ?? ""
                if name == "locations" && markerName.hasPrefix("Matrix marker") {
                    if markerName == label { break }
                    continue
                }
                guard let table = exposed.tables[name] else { continue }
                let row = type == "DELETE" ? old ?? [:] : record ?? [:]
                let probe = (frame["topic"] as? String)?.hasPrefix(Self.probeTopic) == true
                changes[Heard(table: name, type: type, key: MatrixSnapshot.key(row, table), probe: probe)] = row
                if type == "DELETE" {
                    let extra = Set(row.keys).subtracting(table.key)
                    result.cell(
                        "\(name) × DELETE old_record × \(listener.actor)",
                        extra.isEmpty && record == nil ? nil : "carried \(extra.sorted())\(record == nil ? "" : " and a record")")
                } else if let model = AccessModel.table(name), let old {
                    let hidden = old.keys.filter { model.read(for: listener.actor).hidden.contains($0) && !(old[$0] is NSNull) }
                    if !hidden.isEmpty { result.cell("\(name) × \(type) old_record × \(listener.actor)", "carried hidden \(hidden)") }
                }
            }
            heard[listener.actor] = changes
        }
        return heard
    }

    func check(
        _ type: String, _ heard: [MatrixActor: [Heard: MatrixRow]], rows: [(TableModel, ExposedTables.Table, ThrowawayRow, MatrixRow)],
        snapshot: MatrixSnapshot, listeners: [Listener], result: inout MatrixResult
    ) {
        for listener in listeners {
            let actor = listener.actor
            var expectedAll: Set<Heard> = []
            for (model, table, _, stored) in rows {
                let key = MatrixSnapshot.key(stored, table)
                let item = Heard(table: table.name, type: type, key: key)
                let rule = model.read(for: actor)
                let row = snapshot.rows[table.name]?.first { MatrixSnapshot.key($0, table) == key } ?? stored
                let readable = snapshot.admits(anyOf: rule.rows, row, viewer: fixture.id(actor))
                if readable { expectedAll.insert(item) }
                let got = heard[actor]?[item]
                let problem: String?
                if readable != (got != nil) {
                    problem = readable ? "not heard" : "heard, but the model gives \(actor) no read of it"
                } else if let got, type != "DELETE" {
                    let columns = Set(table.columns.filter { !rule.hidden.contains($0) })
                    problem = Set(got.keys) == columns ? nil : "record columns \(got.keys.sorted()), expected \(columns.sorted())"
                } else {
                    problem = nil
                }
                result.cell("\(table.name) × realtime \(type) × \(actor)", problem)
                if listener.probes.contains(table.name) {
                    let leaked = heard[actor]?[Heard(table: table.name, type: type, key: key, probe: true)] != nil
                    result.cell(
                        "\(table.name) × realtime \(type) filtered on a hidden column × \(actor)", leaked ? "heard: the filter matched a hidden column" : nil)
                }
            }
            let stray = Set(heard[actor]?.keys.filter { !$0.probe } ?? []).subtracting(expectedAll).filter { item in
                !rows.contains { $0.1.name == item.table && MatrixSnapshot.key($0.3, $0.1) == item.key }
            }
            if !stray.isEmpty { result.failures.append("realtime \(type) × \(actor): heard changes nobody made in this round: \(stray)") }
        }
    }
}

extension MatrixSnapshot {
    func admits(anyOf scopes: [RowScope], _ row: MatrixRow, viewer: String?) -> Bool {
        scopes.contains { admits($0, row, viewer: viewer) }
    }
}
