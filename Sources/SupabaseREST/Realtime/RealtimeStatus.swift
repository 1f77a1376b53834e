import Foundation

/// The state of the Realtime socket, as supabase-swift names it.
public enum RealtimeClientStatus: Sendable, Equatable, CustomStringConvertible {
    /// No socket, and none being opened (before first use, after ``RealtimeClientV2/disconnect()``,
    /// or between a lost socket and the next reconnection attempt).
    case disconnected
    /// A socket is being opened.
    case connecting
    /// The socket is open; heartbeats are running.
    case connected

    public var description: String {
        switch self {
        case .disconnected: "Disconnected"
        case .connecting: "Connecting"
        case .connected: "Connected"
        }
    }
}

/// The state of one channel, as supabase-swift names it.
public enum RealtimeChannelStatus: Sendable, Equatable {
    /// Not joined.
    case unsubscribed
    /// A join is under way — the first one, or a re-join after the socket reconnected.
    case subscribing
    /// Joined: changes are delivered.
    case subscribed
    /// A leave is under way.
    case unsubscribing
}

/// A current value plus a stream of its changes, for the `status`/`statusChange` pairs.
///
/// Each ``stream()`` starts with the current value and then yields every change, in the
/// order the changes were made (values are yielded under the lock that orders them).
final class RealtimeValueSubject<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var value: Value
        var continuations: [UUID: AsyncStream<Value>.Continuation] = [:]
    }

    private let state: LockedValue<State>

    init(_ initial: Value) { state = LockedValue(State(value: initial)) }

    var value: Value { state.value.value }

    /// Sets the value; nothing is yielded when it does not change.
    func send(_ value: Value) {
        state.withValue { state in
            guard state.value != value else { return }
            state.value = value
            for continuation in state.continuations.values { continuation.yield(value) }
        }
    }

    /// A new stream: the current value, then every change, until the consumer stops.
    func stream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream()
        let id = UUID()
        state.withValue { state in
            state.continuations[id] = continuation
            continuation.yield(state.value)
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withValue { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }
}
