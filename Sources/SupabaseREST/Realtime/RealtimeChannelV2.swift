import Foundation

/// One Realtime channel (topic `realtime:<name>`) and its `postgres_changes` bindings,
/// shaped like supabase-swift's `RealtimeChannelV2`.
///
/// Bindings are declared first — each `postgresChange(InsertAction.self, table: …)` (or
/// `UpdateAction`, `DeleteAction`, `AnyAction`) returns the stream of that binding's
/// changes — and sent to the server with the join
/// (``subscribeWithError()``); as in supabase-swift, a binding added after subscribing
/// would never be sent, so its stream finishes at once. The server answers the join with
/// an id per binding, and each change names the ids it is for: that is how a change reaches
/// its stream. The join is repeated on every new socket after a reconnection.
///
/// Streams finish when the channel is left (``unsubscribe()``) or closed by the server.
public final class RealtimeChannelV2: Sendable {
    /// `realtime:<name>`.
    public let topic: String
    /// The join settings.
    public let config: RealtimeChannelConfig
    let socket: RealtimeClientV2
    let state = LockedValue(State())
    let statusSubject = RealtimeValueSubject<RealtimeChannelStatus>(.unsubscribed)

    struct Binding {
        let id: UUID
        let config: PostgresJoinConfig
        /// `nil` once the consumer stopped iterating.
        var deliver: (@Sendable (AnyAction) -> Void)?
        let finish: @Sendable () -> Void
    }

    struct State {
        var bindings: [Binding] = []
        /// Server-assigned binding id → binding, from the last join reply.
        var routes: [Int: UUID] = [:]
        /// Whether the channel should be joined (and re-joined after a reconnection).
        var wantsJoined = false
        /// The `ref` of the current join; messages about an older join are ignored.
        var joinRef: String?
        /// The socket generation a join was sent on, so a socket is joined once.
        var joiningOn: Int?
        /// Callers of ``subscribeWithError()`` awaiting the join's outcome.
        var waiters: [UUID: @Sendable (Result<Void, any Error>) -> Void] = [:]
    }

    init(topic: String, config: RealtimeChannelConfig, socket: RealtimeClientV2) {
        self.topic = topic
        self.config = config
        self.socket = socket
    }

    // MARK: Status

    /// The channel's state now.
    public var status: RealtimeChannelStatus { statusSubject.value }

    /// The channel's state: the current one, then every change.
    public var statusChange: AsyncStream<RealtimeChannelStatus> { statusSubject.stream() }

    // MARK: Bindings

    /// Inserts into `table` (every table of `schema` when `nil`), optionally only rows
    /// matching `filter` (`column=op.value`, ops `eq`, `neq`, `lt`, `lte`, `gt`, `gte`, `in`).
    public func postgresChange(
        _: InsertAction.Type, schema: String = "public", table: String? = nil, filter: String? = nil
    ) -> AsyncStream<InsertAction> {
        changes(.insert, schema: schema, table: table, filter: filter) {
            if case .insert(let action) = $0 { action } else { nil }
        }
    }

    /// Updates of `table`; see the insert variant for `filter`.
    public func postgresChange(
        _: UpdateAction.Type, schema: String = "public", table: String? = nil, filter: String? = nil
    ) -> AsyncStream<UpdateAction> {
        changes(.update, schema: schema, table: table, filter: filter) {
            if case .update(let action) = $0 { action } else { nil }
        }
    }

    /// Deletes from `table`; see the insert variant for `filter`.
    public func postgresChange(
        _: DeleteAction.Type, schema: String = "public", table: String? = nil, filter: String? = nil
    ) -> AsyncStream<DeleteAction> {
        changes(.delete, schema: schema, table: table, filter: filter) {
            if case .delete(let action) = $0 { action } else { nil }
        }
    }

    /// Every change of `table`; see the insert variant for `filter`.
    public func postgresChange(
        _: AnyAction.Type, schema: String = "public", table: String? = nil, filter: String? = nil
    ) -> AsyncStream<AnyAction> {
        changes(.all, schema: schema, table: table, filter: filter) { $0 }
    }

    private func changes<Action: Sendable>(
        _ event: PostgresChangeEvent,
        schema: String,
        table: String?,
        filter: String?,
        extract: @escaping @Sendable (AnyAction) -> Action?
    ) -> AsyncStream<Action> {
        let (stream, continuation) = AsyncStream<Action>.makeStream()
        let id = UUID()
        let binding = Binding(
            id: id, config: PostgresJoinConfig(event: event, schema: schema, table: table, filter: filter),
            deliver: { action in if let action = extract(action) { continuation.yield(action) } },
            finish: { continuation.finish() })
        let added = state.withValue { state -> Bool in
            guard !state.wantsJoined else { return false }
            state.bindings.append(binding)
            return true
        }
        guard added else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withValue { state in
                if let index = state.bindings.firstIndex(where: { $0.id == id }) { state.bindings[index].deliver = nil }
            }
        }
        return stream
    }

    // MARK: Subscribing

    /// Joins the channel, ignoring failure (supabase-swift's `subscribe()`); watch
    /// ``status`` or use ``subscribeWithError()`` to learn the outcome.
    public func subscribe() async {
        try? await subscribeWithError()
    }

    /// Joins the channel: opens the socket if needed, sends `phx_join` with the bindings and
    /// the access token, and returns once the server accepted them.
    ///
    /// - Throws: ``RealtimeError/joinRefused(topic:reason:)`` with the server's reason,
    ///   ``RealtimeError/bindingsMismatch(topic:requested:received:)``, or
    ///   ``RealtimeError/timedOut(operation:after:)`` when the socket or the reply did not come
    ///   within ``RealtimeClientOptions/timeoutInterval``. The channel is then unsubscribed.
    public func subscribeWithError() async throws {
        let limit = socket.options.timeoutInterval
        let waiterID = UUID()
        let shot = FirstOutcome<Void>()
        defer { state.withValue { _ = $0.waiters.removeValue(forKey: waiterID) } }
        let subscribed = state.withValue { state -> Bool in
            if state.wantsJoined, statusSubject.value == .subscribed { return true }
            state.wantsJoined = true
            state.waiters[waiterID] = { _ = shot.finish($0) }
            statusSubject.send(.subscribing)
            return false
        }
        if subscribed { return }
        socket.adopt(self)
        if let generation = socket.connectedGeneration {
            Task { await self.join(on: generation) }
        }
        do {
            try await shot.wait {
                let timer = Task { [topic] in
                    try? await Task.sleep(for: limit)
                    if !Task.isCancelled {
                        shot.finish(.failure(RealtimeError.timedOut(operation: "subscribe to \(topic)", after: limit)))
                    }
                }
                shot.track(timer)
            }
        } catch {
            await abandonJoin()
            throw error
        }
    }

    /// Leaves the channel (`phx_leave`, awaiting the reply at most the configured timeout),
    /// finishes its change streams and removes it from the client.
    public func unsubscribe() async {
        let (joinRef, waiters) = state.withValue { state in
            let joinRef = state.joinRef
            state.wantsJoined = false
            state.joinRef = nil
            state.joiningOn = nil
            state.routes = [:]
            let waiters = Array(state.waiters.values)
            state.waiters = [:]
            if joinRef != nil { statusSubject.send(.unsubscribing) }
            return (joinRef, waiters)
        }
        waiters.forEach { $0(.failure(CancellationError())) }
        if let joinRef, let generation = socket.connectedGeneration {
            let leave = RealtimeMessageV2(
                joinRef: joinRef, ref: socket.makeRef(), topic: topic, event: RealtimeEvent.leave, payload: [:])
            _ = try? await socket.request(leave, on: generation, operation: "leave \(topic)") { _ in () }
        }
        close()
    }
}
