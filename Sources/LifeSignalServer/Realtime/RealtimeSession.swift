import Foundation
import LifeSignalBackend
import Logging

/// Reads one socket's Phoenix messages and answers them: heartbeats, joins with
/// `postgres_changes`, leaves and token refreshes. Changes themselves are pushed by
/// ``RealtimeDispatcher``.
///
/// A join is refused (`phx_reply` with status `error` and a `reason`) when its token is bad,
/// its table is not exposed, the role may not read the table, or the filter is not one the
/// table can answer — so a client learns at once that it will never receive anything, rather
/// than waiting on a channel that stays silent.
struct RealtimeSession: Sendable {
    let connection: RealtimeConnection
    let hub: RealtimeHub
    let auth: AuthService
    let schema: SchemaCache
    /// The socket's `apikey`, the identity of a join that brings no `access_token`.
    let apiKey: String
    let logger: Logger

    enum Outcome: Equatable {
        case keepOpen
        case close(reason: String)
    }

    func handle(_ text: String) async -> Outcome {
        let message: PhoenixMessage
        do { message = try PhoenixMessage.decode(text) } catch {
            return .close(reason: error.description)
        }
        switch (message.topic, message.event) {
        case ("phoenix", "heartbeat"):
            connection.reply(to: message, status: "ok", responseJSON: "{}")
            await closeEndedSessions()
        case (_, "phx_join"):
            await Self.inOwnTask { await join(message) }
        case (_, "phx_leave"):
            await hub.leave(connection: connection.id, topic: message.topic)
            connection.reply(to: message, status: "ok", responseJSON: "{}")
            connection.push(topic: message.topic, event: "phx_close", payloadJSON: "{}", joinRef: message.joinRef, ref: message.ref)
        case (_, "access_token"):
            await Self.inOwnTask { await refreshToken(message) }
        default:
            guard await hub.channel(connection: connection.id, topic: message.topic) != nil else {
                connection.reply(to: message, status: "error", responseJSON: "{\"reason\":\"unmatched topic\"}")
                return .keepOpen
            }
            // Broadcast and presence are not served; their pushes on a joined channel are
            // accepted and dropped, as a channel with those features disabled does.
            logger.debug("realtime: ignored event", metadata: ["event": "\(message.event)"])
        }
        return .keepOpen
    }

    /// Runs `work` in a child task and waits for it, so messages are still handled one at a
    /// time. A socket's reading task lives as long as the socket, and a task keeps the memory
    /// its deepest call ever needed until it ends: a join or a token refresh verifies a JWT and
    /// asks the database about the session, which left about 6 KB per socket held for the
    /// socket's whole life (Benchmarks/realtime/idle.sh). A child task frees it when done.
    static func inOwnTask(_ work: @escaping @Sendable () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in group.addTask(operation: work) }
    }

    private func join(_ message: PhoenixMessage) async {
        let token = message.payload["access_token"]?.stringValue ?? apiKey
        let claims: TokenClaims
        let caller: Caller
        do {
            claims = try await auth.authenticate(token)
            caller = try AccessTokens.caller(claims: claims)
        } catch {
            return refuse(message, reason: Self.describe(error))
        }
        if let refusal = await sessionRefusal(claims) { return refuse(message, reason: refusal) }
        let entries: [JSONValue]
        switch message.payload["config"]?["postgres_changes"] {
        case nil, .null?: entries = []
        case .array(let items)?: entries = items
        default: return refuse(message, reason: "config.postgres_changes must be an array")
        }
        // Counted before any filter is parsed: each binding costs work on every change.
        guard entries.count <= hub.limits.bindingsPerJoin else {
            hub.counters.refused(.bindingsPerJoin)
            return refuse(message, reason: "Too many postgres_changes in one join: at most \(hub.limits.bindingsPerJoin)")
        }
        let bindings: [PostgresChangesBinding]
        do {
            bindings = try PostgresChangesBinding.parse(entries, nextID: hub.nextBindingID)
        } catch {
            guard case .malformed(let why) = error else { return }
            return refuse(message, reason: why)
        }
        for binding in bindings {
            if let problem = await problem(with: binding, role: DatabaseRole.acting(as: caller, claims: claims)) { return refuse(message, reason: problem) }
        }
        guard await hub.waitUntilReady() else {
            return refuse(message, reason: "Realtime is not receiving database changes yet; try again")
        }
        if let refusal = await hub.join(
            RealtimeChannel(
                connection: connection, topic: message.topic, joinRef: message.joinRef,
                caller: caller, claims: claims, bindings: bindings))
        {
            return refuse(message, reason: refusal)
        }
        connection.reply(
            to: message, status: "ok",
            responseJSON: "{\"postgres_changes\":[" + bindings.map(\.replyJSON).joined(separator: ",") + "]}")
        if !bindings.isEmpty {
            let name = message.topic.hasPrefix("realtime:") ? String(message.topic.dropFirst("realtime:".count)) : message.topic
            connection.push(
                topic: message.topic, event: "system",
                payloadJSON: """
                    {"channel":\(JSONRenderer.quote(name)),"extension":"postgres_changes","message":"Subscribed to PostgreSQL","status":"ok"}
                    """)
        }
    }

    /// Why this binding can never deliver anything to this role, or `nil` when it can.
    private func problem(with binding: PostgresChangesBinding, role: DatabaseRole) async -> String? {
        let unable =
            "Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: "
            + "[event: \(binding.event), schema: \(binding.schema), table: \(binding.table), filters: [\(binding.filterText ?? "")]]"
        guard binding.schema == "public", let table = schema.table(binding.table),
            ChangeCapture.publishedTables.contains(where: { $0.table == binding.table })
        else { return unable }
        guard role == .serviceRole || Schema.policy(for: table.name)?.isGranted(.select, to: role) == true else {
            return "permission denied for table \(binding.table)"
        }
        if let column = binding.filterColumn, table.column(column) == nil {
            return "column \"\(column)\" does not exist in table \(binding.table)"
        }
        // A filter on a column the role may not read (content's `created_by` for all but
        // editors) is refused as its GET would be, not left to match nothing in silence.
        if let column = binding.filterColumn, role != .serviceRole,
            let readable = Schema.policy(for: table.name)?.readable(by: role), !readable.contains(column)
        {
            return "permission denied for column \"\(column)\" of relation \"\(binding.table)\""
        }
        return nil
    }

    private func refreshToken(_ message: PhoenixMessage) async {
        guard await hub.channel(connection: connection.id, topic: message.topic) != nil,
            let token = message.payload["access_token"]?.stringValue
        else { return }
        let refusal: String
        do {
            let claims = try await auth.authenticate(token)
            if let ended = await sessionRefusal(claims) { throw SessionEnded(reason: ended) }
            guard
                let refused = await hub.updateIdentity(
                    connection: connection.id, topic: message.topic,
                    caller: try AccessTokens.caller(claims: claims), claims: claims)
            else { return }
            refusal = refused
        } catch let error as SessionEnded {
            refusal = error.reason
        } catch {
            refusal = Self.describe(error)
        }
        await hub.leave(connection: connection.id, topic: message.topic)
        connection.push(
            topic: message.topic, event: "system",
            payloadJSON:
                "{\"extension\":\"system\",\"message\":\(JSONRenderer.quote(refusal)),\"status\":\"error\"}")
        connection.push(topic: message.topic, event: "phx_close", payloadJSON: "{}", joinRef: message.joinRef)
    }

    /// Answers a message that came over ``RealtimeLimits/messagesPerSecond`` without acting
    /// on it; a frame that is not a Phoenix message closes the socket, as always.
    func refuseOverRate(_ text: String) -> Outcome {
        let message: PhoenixMessage
        do { message = try PhoenixMessage.decode(text) } catch {
            return .close(reason: error.description)
        }
        hub.counters.refused(.messagesPerSecond)
        refuse(message, reason: "Too many messages: at most \(hub.limits.messagesPerSecond) a second")
        return .keepOpen
    }

    private func refuse(_ message: PhoenixMessage, reason: String) {
        connection.reply(to: message, status: "error", responseJSON: "{\"reason\":\(JSONRenderer.quote(reason))}")
    }

    /// Why a token was refused, as a join's or refresh's `reason`. Tokens are checked through
    /// ``AuthService/authenticate(_:)``, as on every HTTP route; a check the database could not
    /// make can be tried again.
    static func describe(_ error: any Error) -> String {
        switch error {
        case TokenError.expired: "Token has expired"
        case TokenError.malformed(let why): "Invalid token: \(why)"
        case TokenError.badSignature: "Invalid token: signature does not verify"
        case TokenError.unknownRole(let role): "Invalid token: role \"\(role)\" does not exist"
        case is DatabaseError: "Could not check the token; try again"
        default: "Invalid token"
        }
    }
}
