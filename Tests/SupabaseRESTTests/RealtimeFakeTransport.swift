import Foundation
import Testing

@testable import SupabaseREST

/// The server side of Realtime for tests: records every connect and plays scripted sockets.
final class FakeSocketTransport: WebSocketTransport, @unchecked Sendable {
    /// What a connect attempt does.
    enum Behaviour: Sendable {
        /// Opens a ``FakeSocket``.
        case open
        /// Fails at once, like a refused connection.
        case fail
        /// Never answers (until cancelled).
        case hang
    }

    struct Attempt: Sendable {
        var url: URL
        var headers: [String: String]
    }

    private let script: LockedValue<[Behaviour]>
    private let recorded = LockedValue<[Attempt]>([])
    private let opened = LockedValue<[FakeSocket]>([])

    /// Connects behave as `script` says, in order, then open.
    init(script: [Behaviour] = []) { self.script = LockedValue(script) }

    var attempts: [Attempt] { recorded.value }
    var sockets: [FakeSocket] { opened.value }

    func connect(to url: URL, headers: [String: String]) async throws -> any WebSocketConnection {
        recorded.withValue { $0.append(Attempt(url: url, headers: headers)) }
        let behaviour = script.withValue { $0.isEmpty ? Behaviour.open : $0.removeFirst() }
        switch behaviour {
        case .open:
            let socket = FakeSocket()
            opened.withValue { $0.append(socket) }
            return socket
        case .fail:
            throw RealtimeError.transport(message: "connection refused (scripted)")
        case .hang:
            try await Task.sleep(for: .seconds(3600))
            throw CancellationError()
        }
    }

    /// The socket opened by connect number `index` (0-based), waiting for it.
    func socket(_ index: Int, timeout: Duration = .seconds(30)) async throws -> FakeSocket {
        try await eventually("socket #\(index) to open", timeout: timeout) {
            let sockets = self.sockets
            return sockets.count > index ? sockets[index] : nil
        }
    }
}

/// One scripted socket: what the client sent, and a way to push frames or drop the socket.
final class FakeSocket: WebSocketConnection, @unchecked Sendable {
    let messages: AsyncThrowingStream<String, any Error>
    private let inbound: AsyncThrowingStream<String, any Error>.Continuation
    private let state = LockedValue<(sent: [String], cursor: Int, closed: Bool)>(([], 0, false))

    struct Dropped: Error {}

    init() { (messages, inbound) = AsyncThrowingStream<String, any Error>.makeStream() }

    var sent: [String] { state.value.sent }
    var isClosed: Bool { state.value.closed }

    func send(_ text: String) async throws {
        try state.withValue { state in
            guard !state.closed else { throw RealtimeError.notConnected }
            state.sent.append(text)
        }
    }

    func close() async {
        state.withValue { $0.closed = true }
        inbound.finish()
    }

    // MARK: Server side

    /// Pushes a frame to the client.
    func push(_ text: String) { inbound.yield(text) }

    func push(_ message: RealtimeMessageV2) throws { push(try message.encodedText()) }

    /// Breaks the socket, as a network failure would.
    func drop() {
        state.withValue { $0.closed = true }
        inbound.finish(throwing: Dropped())
    }

    /// The next frame the client sent (heartbeats skipped unless asked for).
    func next(heartbeats: Bool = false, timeout: Duration = .seconds(30)) async throws -> String {
        try await eventually("a frame from the client", timeout: timeout) {
            self.state.withValue { state -> String? in
                while state.cursor < state.sent.count {
                    let frame = state.sent[state.cursor]
                    state.cursor += 1
                    if heartbeats || !frame.contains(#""phoenix","heartbeat""#) { return frame }
                }
                return nil
            }
        }
    }

    /// Fails when the client sends a (non-heartbeat) frame within `window`.
    func expectSilence(for window: Duration = .milliseconds(150)) async throws {
        try await Task.sleep(for: window)
        let unread = state.withValue { state in
            state.sent[state.cursor...].filter { !$0.contains(#""phoenix","heartbeat""#) }
        }
        #expect(unread.isEmpty, "unexpected frames: \(unread)")
    }

    /// Answers a `phx_join` frame: ok with the requested bindings echoed with `ids`.
    func acceptJoin(_ joinFrame: String, ids: [Int]) throws {
        let join = try RealtimeMessageV2.decode(joinFrame)
        #expect(join.event == "phx_join")
        let requested = join.payload["config"]?.objectValue?["postgres_changes"]?.arrayValue ?? []
        let echoed = zip(requested, ids).map { entry, id -> AnyJSON in
            var fields = entry.objectValue ?? [:]
            fields["id"] = .integer(id)
            return .object(fields)
        }
        try reply(to: join, status: "ok", response: ["postgres_changes": .array(echoed)])
    }

    /// A `phx_reply` to `message`.
    func reply(to message: RealtimeMessageV2, status: String, response: JSONObject = [:]) throws {
        try push(
            RealtimeMessageV2(
                joinRef: message.joinRef, ref: message.ref, topic: message.topic, event: "phx_reply",
                payload: ["status": .string(status), "response": .object(response)]))
    }

    /// A `postgres_changes` push for binding `ids`.
    func pushChange(topic: String, ids: [Int], type: String, record: JSONObject?, oldRecord: JSONObject? = nil) throws {
        var data: JSONObject = [
            "schema": "public", "table": "locations", "commit_timestamp": "2024-06-01T10:00:00.000Z",
            "type": .string(type), "columns": [["name": "id", "type": "int8"], ["name": "name", "type": "text"]],
            "errors": nil,
        ]
        if let record { data["record"] = .object(record) }
        if let oldRecord { data["old_record"] = .object(oldRecord) }
        try push(
            RealtimeMessageV2(
                joinRef: nil, ref: nil, topic: topic, event: "postgres_changes",
                payload: ["ids": .array(ids.map(AnyJSON.integer)), "data": .object(data)]))
    }
}

/// Collects a stream's elements in the background, for assertions with a deadline.
final class StreamCollector<Element: Sendable>: @unchecked Sendable {
    private let state = LockedValue<(items: [Element], finished: Bool)>(([], false))
    private var task: Task<Void, Never>?

    init(_ stream: AsyncStream<Element>) {
        task = Task { [state] in
            for await item in stream { state.withValue { $0.items.append(item) } }
            state.withValue { $0.finished = true }
        }
    }

    deinit { task?.cancel() }

    var items: [Element] { state.value.items }
    var isFinished: Bool { state.value.finished }

    /// The first `count` elements, waiting for them.
    func first(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [Element] {
        try await eventually("\(count) element(s)", timeout: timeout) {
            let items = self.items
            return items.count >= count ? Array(items.prefix(count)) : nil
        }
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String
}

/// Polls `probe` until it returns a value; fails after `timeout` (a bound against a hang: the
/// full parallel suite on two cores has held a test's tasks off the CPU for seconds).
func eventually<T>(
    _ what: String, timeout: Duration = .seconds(30), _ probe: () async throws -> T?
) async throws -> T {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        if let value = try await probe() { return value }
        guard clock.now < deadline else { throw TimedOut(description: "waited \(timeout) for \(what)") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Waits until `condition` holds; fails after `timeout`.
func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws {
    let _: Bool = try await eventually(what, timeout: timeout) { try await condition() ? true : nil }
}

/// Realtime options for tests: the fake transport, short timeouts, no jitter.
func fakeRealtimeOptions(
    _ transport: FakeSocketTransport,
    heartbeat: Duration = .seconds(60),
    timeout: Duration = .seconds(2)
) -> RealtimeClientOptions {
    RealtimeClientOptions(
        transport: transport, heartbeatInterval: heartbeat,
        reconnectBackoff: RealtimeBackoff(initial: .milliseconds(10), maximum: .milliseconds(40), jitter: 0),
        timeoutInterval: timeout)
}

/// A `SupabaseClient` whose Realtime runs on `transport` and whose HTTP goes to `http`.
func makeRealtimeClient(
    _ transport: FakeSocketTransport,
    http: any HTTPTransport = RecordingTransport(),
    heartbeat: Duration = .seconds(60),
    // Long: only the tests of the timeout pass a short one. Two seconds lost the race with a
    // fake socket's reply once, with the whole suite running on two cores.
    timeout: Duration = .seconds(15)
) -> SupabaseClient {
    SupabaseClient(
        supabaseURL: projectURL, supabaseKey: anonKey,
        options: SupabaseClientOptions(
            global: .init(transport: http, retryPolicy: .none, timeout: .seconds(5)),
            realtime: fakeRealtimeOptions(transport, heartbeat: heartbeat, timeout: timeout)))
}
