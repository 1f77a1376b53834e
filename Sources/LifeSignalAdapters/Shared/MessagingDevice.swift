import Foundation
import LifeSignalDomain
import Synchronization

/// One device's messaging identity on the client side: its token, whom it is registered
/// for, and how far into the token's inbox the device has read.
///
/// FCM keeps this in the app's installation; here it lives as long as this object, in memory:
/// each adapter's `messagingClient` makes a fresh one (one device per client value) unless
/// it is given one to share. A new process is a new device with a new token.
public final class MessagingDevice: Sendable {
    struct State {
        var token: String?
        var owner: UserID?
        /// The inbox cursor of ``token``: messages after it have not been handed out yet.
        var cursor = 0
        var tokenObservers: [UUID: AsyncStream<String>.Continuation] = [:]
        var wakeObservers: [UUID: AsyncStream<Void>.Continuation] = [:]
    }

    private let state = Mutex(State())
    /// Token changes one at a time, so two concurrent first calls make one token.
    private let serial = SerialQueue()

    public init() {}

    /// The current token, if one has been made and not deleted.
    public var currentToken: String? { state.withLock { $0.token } }

    /// Who the current token was registered for, if anyone.
    package var owner: UserID? { state.withLock { $0.owner } }

    func withState<T: Sendable>(_ body: (inout State) -> T) -> T { state.withLock { body(&$0) } }

    /// Runs token-changing work after any already running.
    func serially<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await serial.run(body)
    }

    /// Sets a new token (or none): resets the cursor, tells token followers and wakes
    /// message streams.
    func replaceToken(with token: String?, owner: UserID?) {
        let (observers, wakes) = withState { state -> ([AsyncStream<String>.Continuation], [AsyncStream<Void>.Continuation]) in
            let changed = state.token != token
            state.token = token
            state.owner = owner
            if changed { state.cursor = 0 }
            return (changed ? Array(state.tokenObservers.values) : [], Array(state.wakeObservers.values))
        }
        if let token { for observer in observers { observer.yield(token) } }
        for wake in wakes { wake.yield() }
    }

    /// The current token (if any), then each new one.
    func tokens() -> (AsyncStream<String>, hasToken: Bool) {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        let hasToken = withState { state in
            state.tokenObservers[id] = continuation
            if let token = state.token { continuation.yield(token) }
            return state.token != nil
        }
        continuation.onTermination = { [weak self] _ in _ = self?.withState { $0.tokenObservers.removeValue(forKey: id) } }
        return (stream, hasToken)
    }

    /// A signal each time the token changes; message streams read the inbox again on it.
    func wakes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        withState { $0.wakeObservers[id] = continuation }
        continuation.onTermination = { [weak self] _ in _ = self?.withState { $0.wakeObservers.removeValue(forKey: id) } }
        return stream
    }

    /// Moves the cursor forward after messages of `token` were handed out (never back, and
    /// not at all if the token changed meanwhile).
    func advance(_ token: String, to cursor: Int) {
        withState { state in
            if state.token == token, cursor > state.cursor { state.cursor = cursor }
        }
    }
}

/// First come, first served for async work; each body runs alone.
actor SerialQueue {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer {
            if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
