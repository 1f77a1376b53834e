import Foundation

/// The socket's life: open, heartbeat, read, and reopen after a loss.
extension RealtimeClientV2 {
    /// Starts the supervisor (and the auth observer) unless running.
    func startIfNeeded() {
        state.withValue { state in
            guard state.supervisor == nil else { return }
            state.supervisorID += 1
            let id = state.supervisorID
            state.supervisor = Task { await self.supervise(id: id) }
            if state.authObserver == nil, let tokenChanges {
                state.authObserver = Task { [weak self] in
                    for await token in tokenChanges() {
                        guard let self else { return }
                        await self.setAuth(token)
                    }
                }
            }
        }
    }

    /// Waits for ``RealtimeClientStatus/connected``, at most the configured timeout.
    func waitUntilConnected() async throws {
        if status == .connected { return }
        let limit = options.timeoutInterval
        let statuses = statusChange
        try await withDeadline(limit, timeout: { RealtimeError.timedOut(operation: "connect", after: limit) }) {
            for await status in statuses where status == .connected { return }
            throw CancellationError()
        }
    }

    /// The generation of the open socket, if one is open.
    var connectedGeneration: Int? {
        state.withValue { $0.connection == nil ? nil : $0.generation }
    }

    /// Opens, uses and reopens sockets until this supervisor is stopped.
    private func supervise(id: Int) async {
        var attempt = 0
        while !Task.isCancelled {
            guard transition(supervisor: id, to: .connecting) else { return }
            let connection: any WebSocketConnection
            do {
                connection = try await openSocket()
            } catch {
                attempt += 1
                guard !Task.isCancelled, transition(supervisor: id, to: .disconnected) else { return }
                try? await Task.sleep(for: options.reconnectBackoff.delay(forAttempt: attempt))
                continue
            }
            guard let generation = adopt(connection, supervisor: id) else {
                await connection.close()
                return
            }
            attempt = 0
            for channel in state.value.channels.values {
                Task { await channel.join(on: generation) }
            }
            await run(connection, generation: generation)
            let current = release(generation, supervisor: id)
            await connection.close()
            guard current, !Task.isCancelled else { return }
            attempt += 1
            try? await Task.sleep(for: options.reconnectBackoff.delay(forAttempt: attempt))
        }
    }

    private func openSocket() async throws -> any WebSocketConnection {
        let limit = options.timeoutInterval
        let (transport, url, headers) = (options.transport, url, headers)
        return try await withDeadline(
            limit, timeout: { RealtimeError.timedOut(operation: "open the socket", after: limit) },
            discard: { late in await late.close() }
        ) {
            try await transport.connect(to: url, headers: headers)
        }
    }

    /// Publishes `status` if supervisor `id` is still the current one.
    private func transition(supervisor id: Int, to status: RealtimeClientStatus) -> Bool {
        state.withValue { state in
            guard state.supervisor != nil, state.supervisorID == id else { return false }
            statusSubject.send(status)
            return true
        }
    }

    /// Makes `connection` the client's socket; its generation, or `nil` when stopped meanwhile.
    private func adopt(_ connection: any WebSocketConnection, supervisor id: Int) -> Int? {
        state.withValue { state in
            guard state.supervisor != nil, state.supervisorID == id else { return nil }
            state.connection = connection
            state.generation += 1
            state.pendingHeartbeat = nil
            statusSubject.send(.connected)
            return state.generation
        }
    }

    /// Forgets a socket that ended: fails the replies it owed, tells the channels.
    ///
    /// - Returns: whether the supervisor is still the current one (should reconnect).
    private func release(_ generation: Int, supervisor id: Int) -> Bool {
        let (current, waiters, channels) = state.withValue { state in
            let current = state.supervisor != nil && state.supervisorID == id
            guard state.generation == generation else {
                return (current, [@Sendable (Result<RealtimeMessageV2, RealtimeError>) -> Void](), [RealtimeChannelV2]())
            }
            state.connection = nil
            state.pendingHeartbeat = nil
            let waiters = Array(state.pendingReplies.values)
            state.pendingReplies = [:]
            if current { statusSubject.send(.disconnected) }
            return (current, waiters, Array(state.channels.values))
        }
        waiters.forEach { $0(.failure(.notConnected)) }
        channels.forEach { $0.connectionLost() }
        return current
    }

    /// Reads frames and sends heartbeats until the socket ends or misses a heartbeat reply.
    private func run(_ connection: any WebSocketConnection, generation: Int) async {
        let interval = options.heartbeatInterval
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    for try await text in connection.messages { self.receive(text, generation: generation) }
                } catch {}
            }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    guard !Task.isCancelled, await self.heartbeat(connection, generation: generation) else { return }
                }
            }
            _ = await group.next()
            group.cancelAll()
        }
    }

    /// Sends a heartbeat; `false` when the previous one is still unanswered (the socket is
    /// dead) or the socket refuses the frame.
    private func heartbeat(_ connection: any WebSocketConnection, generation: Int) async -> Bool {
        enum Beat {
            case stale, missed
            case send(String)
        }
        let beat = state.withValue { state -> Beat in
            guard state.generation == generation else { return .stale }
            if state.pendingHeartbeat != nil { return .missed }
            state.lastRef += 1
            let ref = String(state.lastRef)
            state.pendingHeartbeat = ref
            return .send(ref)
        }
        guard case .send(let ref) = beat else { return false }
        let message = RealtimeMessageV2(
            joinRef: nil, ref: ref, topic: RealtimeEvent.phoenixTopic, event: RealtimeEvent.heartbeat, payload: [:])
        do {
            try await connection.send(try message.encodedText())
        } catch {
            return false
        }
        // AuthClient refreshes only on demand: asking for the token now and then keeps joined
        // channels from outliving their token.
        if accessTokenProvider != nil { Task { await self.setAuth() } }
        return true
    }

    /// Routes one frame: heartbeat replies, awaited replies, then the channel of its topic.
    func receive(_ text: String, generation: Int) {
        guard let message = try? RealtimeMessageV2.decode(text) else { return }
        enum Route {
            case none
            case reply(@Sendable (Result<RealtimeMessageV2, RealtimeError>) -> Void)
            case channel(RealtimeChannelV2)
        }
        let route = state.withValue { state -> Route in
            guard state.generation == generation else { return .none }
            if message.event == RealtimeEvent.reply, let ref = message.ref {
                if message.topic == RealtimeEvent.phoenixTopic, ref == state.pendingHeartbeat {
                    state.pendingHeartbeat = nil
                    return .none
                }
                if let waiter = state.pendingReplies.removeValue(forKey: ref) { return .reply(waiter) }
            }
            return state.channels[message.topic].map(Route.channel) ?? .none
        }
        switch route {
        case .none: break
        case .reply(let waiter): waiter(.success(message))
        case .channel(let channel): channel.receive(message)
        }
    }

    /// Sends `message` on socket `generation` and waits for its `phx_reply`.
    ///
    /// `handle` runs on the reading task, before the next frame is read, so that what it
    /// sets up (a join's routes) is in place for the frames that follow the reply.
    func request<Value: Sendable>(
        _ message: RealtimeMessageV2,
        on generation: Int,
        operation: String,
        handle: @escaping @Sendable (RealtimeMessageV2) throws -> Value
    ) async throws -> Value {
        guard let ref = message.ref else { throw RealtimeError.malformedMessage("a request needs a ref") }
        let text = try message.encodedText()
        let limit = options.timeoutInterval
        let shot = FirstOutcome<Value>()
        defer { state.withValue { _ = $0.pendingReplies.removeValue(forKey: ref) } }
        // The waiter is in place before the frame leaves, so even an immediate reply finds it
        // (the shot keeps an outcome that arrives before `wait`).
        let connection = state.withValue { state -> (any WebSocketConnection)? in
            guard state.generation == generation, let connection = state.connection else { return nil }
            state.pendingReplies[ref] = { result in
                switch result {
                case .success(let reply):
                    do { shot.finish(.success(try handle(reply))) } catch { shot.finish(.failure(error)) }
                case .failure(let error):
                    shot.finish(.failure(error))
                }
            }
            return connection
        }
        guard let connection else { throw RealtimeError.notConnected }
        do { try await connection.send(text) } catch { throw RealtimeError.notConnected }
        return try await shot.wait {
            let timer = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { shot.finish(.failure(RealtimeError.timedOut(operation: operation, after: limit))) }
            }
            shot.track(timer)
        }
    }

    /// Sends `message` on the open socket without waiting for a reply.
    func send(_ message: RealtimeMessageV2) async throws {
        guard let connection = state.value.connection else { throw RealtimeError.notConnected }
        try await connection.send(try message.encodedText())
    }
}
