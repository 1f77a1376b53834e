import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// One person's (or the service role's) socket with a channel on every table a delete test
/// watches, and what it heard.
struct DeleteWatcher {
    let name: String
    let socket: RealtimeTestSocket
    /// The token the channel joined with, and the bearer of the person's own `GET`s.
    let token: String

    /// The tables whose deletes every watcher subscribes to, and with which event.
    static let tables: [(table: String, event: String)] = [
        ("documents", "DELETE"), ("alerts", "*"), ("alert_responses", "DELETE"), ("pings", "DELETE"),
        ("contacts", "DELETE"), ("users", "DELETE"), ("check_ins", "DELETE"),
    ]

    /// Opens a socket and joins one channel with a binding per watched table, plus the
    /// inserts of published locations (which everyone reads) that mark the end of a round.
    static func open(_ name: String, token: String, server: TestServer) async throws -> DeleteWatcher {
        let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
        let bindings: [[String: any Sendable]] = (tables + [("locations", "INSERT")]).map {
            ["event": $0.event, "schema": "public", "table": $0.table]
        }
        try socket.send(
            topic: "realtime:deletes", event: "phx_join",
            payload: ["config": ["postgres_changes": bindings] as [String: any Sendable], "access_token": token], ref: "1", joinRef: "1")
        let reply = try await socket.nextObject(where: { $0["event"] as? String == "phx_reply" && $0["ref"] as? String == "1" })
        let payload = reply["payload"] as? [String: any Sendable]
        #expect(payload?["status"] as? String == "ok", "\(name) could not join: \(String(describing: payload))")
        return DeleteWatcher(name: name, socket: socket, token: token)
    }

    /// The deletes heard until this round's marker, as ``DeletedRow``s, each checked to carry
    /// the primary key and nothing else.
    func deletesUntil(marker: String) async throws -> [DeletedRow] {
        var heard: [DeletedRow] = []
        while true {
            let frame = try await socket.nextObject(where: { RealtimeTests.change($0) != nil })
            let data = try #require(RealtimeTests.change(frame))
            let table = data["table"] as? String ?? ""
            if table == "locations" {
                if (data["record"] as? [String: any Sendable])?["name"] as? String == marker { return heard }
                continue
            }
            guard data["type"] as? String == "DELETE" else { continue }
            #expect(data["record"] == nil, "\(name): a DELETE carried a record")
            let ids = (frame["payload"] as? [String: any Sendable])?["ids"] as? [Int] ?? []
            #expect(!ids.isEmpty, "\(name): a DELETE named no subscription")
            let old = try #require(data["old_record"] as? [String: any Sendable], "\(name): a DELETE of \(table) without old_record")
            let key = DeletedRow.keys[table] ?? []
            #expect(Set(old.keys) == Set(key), "\(name): old_record of \(table) holds \(old.keys.sorted()), not only its key \(key)")
            heard.append(DeletedRow(table: table, key: key.map { "\($0)=\(old[$0] as? String ?? "?")" }.joined(separator: ",")))
        }
    }
}

/// A row by its table and primary key, as a test names it and as a DELETE's `old_record` does.
struct DeletedRow: Hashable, CustomStringConvertible {
    let table: String
    let key: String

    static let keys: [String: [String]] = Dictionary(uniqueKeysWithValues: ChangeCapture.publishedTables.map { ($0.table, $0.key) })

    init(table: String, key: String) {
        self.table = table
        self.key = key
    }

    init(_ table: String, _ values: String...) {
        self.table = table
        key = zip(Self.keys[table] ?? [], values).map { "\($0)=\($1)" }.joined(separator: ",")
    }

    var description: String { "\(table)(\(key))" }

    /// `?id=eq.…` for `GET /rest/v1/<table>`.
    var query: String {
        key.split(separator: ",").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return "\(parts[0])=eq.\(parts.count > 1 ? parts[1] : "")"
        }.joined(separator: "&")
    }

    /// Whether `token`'s own `GET /rest/v1` returns the row now.
    func readable(with token: String, server: TestServer) async throws -> Bool {
        let reply = try await server.request("GET", "/rest/v1/\(table)?\(query)", bearer: token)
        return reply.status == 200 && reply.jsonArray?.count == 1
    }
}

/// Rows written straight into the database, as the functions would leave them: deletes are
/// captured by the database whoever makes them.
struct DeleteFixtures {
    let database: any Database
    let now: Date

    func uuid(_ user: IssuedSession) -> SQLValue { .uuid(user.user.id.rawValue) }

    /// Both halves of a relation: `responder` looks after `dependent`.
    func link(responder: IssuedSession, dependent: IssuedSession) async throws -> (responderSide: DeletedRow, dependentSide: DeletedRow) {
        var rows: [DeletedRow] = []
        for (user, other, isResponder, isDependent) in [(responder, dependent, false, true), (dependent, responder, true, false)] {
            let id = UUID()
            try await database.query(
                """
                INSERT INTO contacts (id, user_id, contact_id, is_responder, is_dependent, notify_on_expiry, added_at, updated_at)
                VALUES (\(SQLValue.uuid(id)), \(uuid(user)), \(uuid(other)), \(SQLValue.bool(isResponder)), \(SQLValue.bool(isDependent)),
                        \(SQLValue.bool(true)), \(SQLValue.timestamp(now)), \(SQLValue.timestamp(now)))
                """)
            rows.append(DeletedRow("contacts", id.uuidString.lowercased()))
        }
        return (rows[0], rows[1])
    }

    func alert(of owner: IssuedSession) async throws -> DeletedRow {
        let id = UUID()
        try await database.query(
            """
            INSERT INTO alerts (id, user_id, status, activated_at) VALUES (\(SQLValue.uuid(id)), \(uuid(owner)), 'active', \(SQLValue.timestamp(now)))
            """)
        return DeletedRow("alerts", id.uuidString.lowercased())
    }

    func response(to alert: DeletedRow, by responder: IssuedSession) async throws -> DeletedRow {
        let alertID = String(alert.key.dropFirst("id=".count))
        try await database.query(
            """
            INSERT INTO alert_responses (alert_id, responder_id, responded_at)
            VALUES (\(SQLValue.uuid(UUID(uuidString: alertID) ?? UUID())), \(uuid(responder)), \(SQLValue.timestamp(now)))
            """)
        return DeletedRow("alert_responses", alertID, responder.user.id.description)
    }

    func ping(from sender: IssuedSession, to recipient: IssuedSession) async throws -> DeletedRow {
        let id = UUID()
        try await database.query(
            """
            INSERT INTO pings (id, sender_id, recipient_id, status, sent_at)
            VALUES (\(SQLValue.uuid(id)), \(uuid(sender)), \(uuid(recipient)), 'pending', \(SQLValue.timestamp(now)))
            """)
        return DeletedRow("pings", id.uuidString.lowercased())
    }

    func document(of owner: IssuedSession, named name: String = "first") async throws -> DeletedRow {
        let path = "users/\(owner.user.id.description)/notes/\(name)"
        try await database.query(
            """
            INSERT INTO documents (path, parent, owner_id, data, created_at, updated_at)
            VALUES (\(SQLValue.text(path)), \(SQLValue.text("users/\(owner.user.id.description)/notes")), \(uuid(owner)),
                    \(SQLValue.json("{\"note\":{\"stringValue\":\"private\"}}")), \(SQLValue.timestamp(now)), \(SQLValue.timestamp(now)))
            """)
        return DeletedRow("documents", path)
    }

    func checkIn(of owner: IssuedSession) async throws -> DeletedRow {
        let id = UUID()
        try await database.query(
            """
            INSERT INTO check_ins (id, user_id, checked_in_at) VALUES (\(SQLValue.uuid(id)), \(uuid(owner)), \(SQLValue.timestamp(now)))
            """)
        return DeletedRow("check_ins", id.uuidString.lowercased())
    }

    /// A published location named `name`: a change every watcher reads, after everything
    /// written before it.
    func marker(_ name: String) async throws {
        let slug = name.lowercased().replacingOccurrences(of: " ", with: "-")
        try await database.query("INSERT INTO locations (name, slug, status) VALUES (\(SQLValue.text(name)), \(SQLValue.text(slug)), 'published')")
    }

    /// Deletes one row by its key, as an operator's script or the sweep would.
    func delete(_ row: DeletedRow) async throws {
        var conditions: [SQL] = []
        for pair in row.key.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let value: SQLValue = UUID(uuidString: parts[1]).map(SQLValue.uuid) ?? .text(parts[1])
            conditions.append(SQL.raw("\(parts[0]) = ") + "\(value)")
        }
        try await database.query(SQL.raw("DELETE FROM \(row.table) WHERE ") + SQL.join(conditions, separator: " AND "))
    }
}
