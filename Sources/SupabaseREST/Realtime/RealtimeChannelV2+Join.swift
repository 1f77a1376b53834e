import Foundation

/// Joining, re-joining, and what the socket hands to a channel.
extension RealtimeChannelV2 {
    /// Sends the join on socket `generation`, unless the channel is not wanted, that socket
    /// already has its join, or it is no longer the open socket (a late task must not replace
    /// the join of a newer socket).
    func join(on generation: Int) async {
        let request = state.withValue { state -> (ref: String, bindings: [PostgresJoinConfig])? in
            guard state.wantsJoined, state.joiningOn != generation, socket.connectedGeneration == generation
            else { return nil }
            let ref = socket.makeRef()
            state.joiningOn = generation
            state.joinRef = ref
            state.routes = [:]
            statusSubject.send(.subscribing)
            return (ref, state.bindings.map(\.config))
        }
        guard let (ref, bindings) = request else { return }
        let token = await socket.accessTokenForJoin()
        let message = RealtimeMessageV2(
            joinRef: ref, ref: ref, topic: topic, event: RealtimeEvent.join,
            payload: config.joinPayload(bindings: bindings, accessToken: token))
        do {
            try await socket.request(message, on: generation, operation: "join \(topic)") { reply in
                try self.accept(reply, ref: ref, bindings: bindings)
            }
        } catch let error as RealtimeError {
            switch error {
            case .joinRefused:
                fail(ref: ref, with: error)
            case .bindingsMismatch:
                // The server did join: leave, so that it stops sending changes nobody can route.
                fail(ref: ref, with: error)
                try? await socket.send(
                    RealtimeMessageV2(joinRef: ref, ref: socket.makeRef(), topic: topic, event: RealtimeEvent.leave, payload: [:]))
            default:
                // No answer on this socket: the next socket joins again.
                state.withValue { state in if state.joinRef == ref { state.joiningOn = nil } }
            }
        } catch {
            state.withValue { state in if state.joinRef == ref { state.joiningOn = nil } }
        }
    }

    /// Reads the join reply (on the socket's reading task): refusal, binding check, routes.
    private func accept(_ reply: RealtimeMessageV2, ref: String, bindings: [PostgresJoinConfig]) throws {
        let response = reply.payload["response"]?.objectValue ?? [:]
        guard reply.status == "ok" else {
            let reason = response["reason"]?.stringValue ?? "the join was answered with status \(reply.status ?? "none")"
            throw RealtimeError.joinRefused(topic: topic, reason: reason)
        }
        let echoed = response["postgres_changes"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let ids = echoed.compactMap { $0["id"]?.intValue }
        guard echoed.count == bindings.count, ids.count == echoed.count,
            zip(bindings, echoed).allSatisfy({ $0.matches($1) })
        else {
            throw RealtimeError.bindingsMismatch(
                topic: topic, requested: bindings.map(\.summary), received: echoed.map(PostgresJoinConfig.summary(of:)))
        }
        let waiters = state.withValue { state -> [@Sendable (Result<Void, any Error>) -> Void] in
            guard state.wantsJoined, state.joinRef == ref else { return [] }
            // Bindings are only appended while not joined, so the join's order is still theirs.
            state.routes = Dictionary(
                zip(ids, state.bindings.prefix(bindings.count).map(\.id)), uniquingKeysWith: { first, _ in first })
            statusSubject.send(.subscribed)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0(.success(())) }
    }

    /// A refused join: the channel is unsubscribed and the callers learn why.
    private func fail(ref: String, with error: RealtimeError) {
        let waiters = state.withValue { state -> [@Sendable (Result<Void, any Error>) -> Void] in
            guard state.joinRef == ref else { return [] }
            state.wantsJoined = false
            state.joinRef = nil
            state.joiningOn = nil
            state.routes = [:]
            statusSubject.send(.unsubscribed)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0(.failure(error)) }
    }

    /// A subscribe that failed or timed out: stop wanting the join, and leave if the server
    /// may have joined us meanwhile.
    func abandonJoin() async {
        let joinRef = state.withValue { state -> String? in
            guard statusSubject.value != .subscribed || !state.wantsJoined else { return nil }
            let joinRef = state.joinRef
            state.wantsJoined = false
            state.joinRef = nil
            state.joiningOn = nil
            state.routes = [:]
            statusSubject.send(.unsubscribed)
            return joinRef
        }
        if let joinRef {
            try? await socket.send(
                RealtimeMessageV2(joinRef: joinRef, ref: socket.makeRef(), topic: topic, event: RealtimeEvent.leave, payload: [:]))
        }
    }

    /// A message of this topic from the socket.
    func receive(_ message: RealtimeMessageV2) {
        switch message.event {
        case RealtimeEvent.postgresChanges:
            guard let (ids, action) = try? PostgresChangePayload.parse(message) else { return }
            let deliveries = state.withValue { state -> [@Sendable (AnyAction) -> Void] in
                let targets = Set(ids.compactMap { state.routes[$0] })
                return state.bindings.filter { targets.contains($0.id) }.compactMap(\.deliver)
            }
            deliveries.forEach { $0(action) }
        case RealtimeEvent.close:
            guard isCurrent(message) else { return }
            close()
        case RealtimeEvent.error:
            guard isCurrent(message), let generation = socket.connectedGeneration else { return }
            // The channel crashed on the server: join again after a pause, as Phoenix does.
            state.withValue { state in
                state.joiningOn = nil
                state.routes = [:]
            }
            let pause = socket.options.reconnectBackoff.initial
            Task {
                try? await Task.sleep(for: pause)
                await self.join(on: generation)
            }
        default:
            break
        }
    }

    /// Whether a lifecycle message belongs to the current join (Phoenix's `isMember`).
    private func isCurrent(_ message: RealtimeMessageV2) -> Bool {
        guard let joinRef = message.joinRef else { return true }
        return state.value.joinRef == joinRef
    }

    /// Gives the channel's current token to the server, when joined or joining.
    func sendAccessToken(_ token: String) async {
        let joinRef = state.withValue { $0.wantsJoined ? $0.joinRef : nil }
        guard let joinRef else { return }
        try? await socket.send(
            RealtimeMessageV2(
                joinRef: joinRef, ref: socket.makeRef(), topic: topic, event: RealtimeEvent.accessToken,
                payload: ["access_token": .string(token)]))
    }

    /// The socket was lost: a wanted channel waits to be joined on the next socket.
    func connectionLost() {
        state.withValue { state in
            state.joiningOn = nil
            state.routes = [:]
            if state.wantsJoined { statusSubject.send(.subscribing) }
        }
    }

    /// The client was disconnected on purpose: the channel is no longer joined (its streams
    /// stay open for a later subscribe).
    func socketStopped() {
        let waiters = state.withValue { state -> [@Sendable (Result<Void, any Error>) -> Void] in
            state.wantsJoined = false
            state.joinRef = nil
            state.joiningOn = nil
            state.routes = [:]
            statusSubject.send(.unsubscribed)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0(.failure(RealtimeError.notConnected)) }
    }

    /// The channel is over (left, or closed by the server): streams finish, the client
    /// forgets it.
    func close() {
        let finishers = state.withValue { state -> [@Sendable () -> Void] in
            state.wantsJoined = false
            state.joinRef = nil
            state.joiningOn = nil
            state.routes = [:]
            defer { state.bindings = [] }
            statusSubject.send(.unsubscribed)
            return state.bindings.map(\.finish)
        }
        finishers.forEach { $0() }
        socket.forget(self)
    }
}
