import Foundation
import HummingbirdWSClient
import Logging

/// A real WebSocket client for Realtime tests: frames go out in order, frames that arrive
/// are queued for ``next(timeout:)``.
public final class RealtimeTestSocket: Sendable {
    private let outgoing: AsyncStream<String>.Continuation
    private let incoming: AsyncStream<Incoming>
    private let task: Task<Void, Never>
    nonisolated(unsafe) private var iterator: AsyncStream<Incoming>.Iterator

    /// How long a test waits for a frame before failing. Only a bound against a hang, not a
    /// speed check: a cold CI machine running the whole suite in parallel has been seen to
    /// take over 5 s for one frame, and over 30 s for the first change fanned out to 3,200
    /// bindings on SQLite (9 s alone).
    public static let patience: Duration = .seconds(120)

    public enum Incoming: Sendable, Equatable {
        case text(String)
        case closed(code: String, reason: String?)
    }

    /// Connects to `/realtime/v1/websocket` of `server` with the given query.
    public static func connect(_ server: TestServer, query: String) async throws -> RealtimeTestSocket {
        let socket = RealtimeTestSocket(url: "ws://127.0.0.1:\(server.port)/realtime/v1/websocket?\(query)")
        return socket
    }

    private init(url: String) {
        let (outgoingStream, outgoing) = AsyncStream<String>.makeStream()
        let (incoming, incomingContinuation) = AsyncStream<Incoming>.makeStream()
        self.outgoing = outgoing
        self.incoming = incoming
        self.iterator = incoming.makeAsyncIterator()
        var logger = Logger(label: "lifesignal.test-socket")
        logger.logLevel = .warning
        task = Task {
            do {
                let close = try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await frame in outgoingStream { try await outbound.write(.text(frame)) }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            if case .text(let text) = message { incomingContinuation.yield(.text(text)) }
                        }
                        group.cancelAll()
                    }
                }
                incomingContinuation.yield(.closed(code: close.map { "\($0.closeCode)" } ?? "none", reason: close?.reason))
            } catch {
                incomingContinuation.yield(.closed(code: "error", reason: "\(error)"))
            }
            incomingContinuation.finish()
        }
    }

    public func send(_ frame: String) { outgoing.yield(frame) }

    /// Sends a JSON object frame (the 1.0.0 framing).
    public func send(topic: String, event: String, payload: [String: any Sendable] = [:], ref: String, joinRef: String? = nil) throws {
        let object: [String: Any] = ["topic": topic, "event": event, "payload": payload, "ref": ref, "join_ref": joinRef ?? NSNull()]
        send(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    /// The next frame, or a failure after `timeout`.
    public func next(timeout: Duration = RealtimeTestSocket.patience) async throws -> Incoming {
        let stream = UncheckedBox(self)
        return try await withThrowingTaskGroup(of: Incoming?.self) { group in
            group.addTask { await stream.value.iterator.next() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TestEnvironmentError(description: "no Realtime frame within \(timeout)")
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let frame = first else {
                throw TestEnvironmentError(description: "the Realtime socket ended")
            }
            return frame
        }
    }

    /// The next text frame decoded as a JSON object (1.0.0 framing).
    public func nextObject(timeout: Duration = RealtimeTestSocket.patience) async throws -> [String: any Sendable] {
        let frame = try await next(timeout: timeout)
        guard case .text(let text) = frame,
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: any Sendable]
        else {
            throw TestEnvironmentError(description: "expected a JSON object frame, got \(frame)")
        }
        return object
    }

    /// Frames until one matches `predicate`, skipping others (such as `system` notices).
    public func nextObject(where predicate: ([String: any Sendable]) -> Bool, timeout: Duration = RealtimeTestSocket.patience) async throws -> [String:
        any Sendable]
    {
        while true {
            let object = try await nextObject(timeout: timeout)
            if predicate(object) { return object }
        }
    }

    public func close() async {
        outgoing.finish()
        _ = await task.value
    }
}

private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
