import Foundation
import LifeSignalBackend
import Logging
import ServiceLifecycle

/// Sends each captured change to the channels subscribed to it, as each subscriber may see it.
///
/// For an insert or update the row is read again as the subscriber — their role, their
/// claims, their binding's filter — through the same path as a `GET /rest/v1` (see
/// ``CallerTransaction``): a subscriber receives exactly the rows a query of theirs would
/// return, and nothing when policies hide the row. Subscribers who would read it alike share
/// one read (``RealtimeReadGroup``), made on SQLite's read-only connections. A delete carries
/// only the old primary key (as Supabase sends it without `REPLICA IDENTITY FULL`), and goes
/// only to subscribers who could have read the row before it was deleted and whose filter
/// matches it: their policy is evaluated against the columns the change log kept of the old
/// row, once per group too (``couldRead(deleted:in:as:claims:filter:)``).
struct RealtimeDispatcher: Service {
    let hub: RealtimeHub
    let backend: LifeSignalBackend
    let schema: SchemaCache
    let pollInterval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                // The feed keeps its place in the change log and retries from it, so changes
                // committed while the database restarts are delivered once it is back. The
                // subscribers' row reads wait for the database too (they would otherwise fail
                // fast and that subscriber would miss the change): a read may run twice, a
                // change is never skipped.
                try await DatabasePatience.$waitsForDatabase.withValue(true) {
                    try await cancelWhenGracefulShutdown {
                        for try await change in ChangeCapture.changes(
                            from: backend.database, pollInterval: pollInterval, onReady: { Task { await hub.markReady() } })
                        {
                            await dispatch(change)
                        }
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("realtime: change stream failed; restarting", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    func dispatch(_ change: CapturedChange) async {
        let channels = await hub.subscribers(of: change.table)
        guard !channels.isEmpty, let table = schema.table(change.table) else { return }
        let now = backend.clock.now().timeIntervalSince1970
        var subscribed: [(channel: RealtimeChannel, bindings: [PostgresChangesBinding])] = []
        for channel in channels {
            let bindings = channel.bindings.filter { $0.table == change.table && $0.accepts(change.kind) }
            guard !bindings.isEmpty else { continue }
            if let expiry = channel.claims?.exp, Double(expiry) <= now {
                await expire(channel)
                continue
            }
            subscribed.append((channel, bindings))
        }
        // A change is read (an insert or update) or checked (a delete) once per group of
        // subscribers who would see it alike, however many bindings share that caller, claims
        // and filter.
        var groups: [RealtimeReadGroup: (claims: TokenClaims?, filter: FilterNode?)] = [:]
        for (channel, bindings) in subscribed {
            for binding in bindings {
                let group = RealtimeReadGroup(caller: channel.caller, claims: channel.claims, filterText: binding.filterText)
                if groups[group] == nil { groups[group] = (channel.claims, binding.filter) }
            }
        }
        let rows = await readRows(of: change, in: table, for: groups)
        for (channel, bindings) in subscribed {
            var ids: [Int] = []
            var record: String?
            for binding in bindings {
                guard let row = rows[RealtimeReadGroup(caller: channel.caller, claims: channel.claims, filterText: binding.filterText)] else { continue }
                ids.append(binding.id)
                if change.kind != .delete { record = row }
            }
            guard !ids.isEmpty else { continue }
            // The column list names only what the subscriber's GET could select.
            let visible = RESTSQLBuilder(table: table, dialect: backend.database.dialect, caller: channel.caller, claims: channel.claims).visibleColumns
            channel.connection.push(
                topic: channel.topic, event: "postgres_changes",
                payloadJSON: Self.payload(change, table: table, columns: visible, ids: ids, record: record))
        }
    }

    private func expire(_ channel: RealtimeChannel) async {
        await hub.leave(connection: channel.connection.id, topic: channel.topic)
        channel.connection.push(
            topic: channel.topic, event: "system",
            payloadJSON: "{\"extension\":\"system\",\"message\":\"Token has expired\",\"status\":\"error\"}")
        channel.connection.push(topic: channel.topic, event: "phx_close", payloadJSON: "{}", joinRef: channel.joinRef)
    }

    /// Realtime's `postgres_changes` payload.
    static func payload(_ change: CapturedChange, table: TableSchema, columns visible: [ColumnSchema], ids: [Int], record: String?) -> String {
        let columns = visible.map { "{\"name\":\(JSONRenderer.quote($0.name)),\"type\":\(JSONRenderer.quote(postgresTypeName($0.type)))}" }
        var data =
            "{\"schema\":\"public\",\"table\":\(JSONRenderer.quote(table.name)),"
            + "\"commit_timestamp\":\(JSONRenderer.quote(change.commitTimestamp)),\"type\":\"\(change.kind.rawValue)\","
            + "\"columns\":[\(columns.joined(separator: ","))],"
        if change.kind != .delete { data += "\"record\":\(record ?? "{}")," }
        if change.kind != .insert, let oldKey = change.oldKey {
            let fields = oldKey.keys.sorted().map { name in
                let value = oldKey[name] ?? ""
                let numeric = ["integer", "bigint"].contains(table.column(name)?.type ?? "") && Int64(value) != nil
                return JSONRenderer.quote(name) + ":" + (numeric ? value : JSONRenderer.quote(value))
            }
            data += "\"old_record\":{\(fields.joined(separator: ","))},"
        }
        data += "\"errors\":null}"
        return "{\"ids\":[\(ids.map(String.init).joined(separator: ","))],\"data\":\(data)}"
    }

    /// The type names Realtime reports (`int8`, `bool`, …), from the schema cache's spelling.
    static func postgresTypeName(_ type: String) -> String {
        switch type {
        case "integer": "int4"
        case "bigint": "int8"
        case "boolean": "bool"
        case "double precision": "float8"
        default: type
        }
    }
}
