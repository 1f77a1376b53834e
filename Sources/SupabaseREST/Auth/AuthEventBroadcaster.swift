import Foundation

/// Fans auth events out to every live ``AuthClient/authStateChanges`` stream.
///
/// A new stream's initial session is read, and the stream registered, under the same lock
/// that every session change takes while it writes the store and emits its event. Without
/// that, a sign-out landing between "read the current session" and "register the stream"
/// would leave the stream holding the old session forever, having missed `signedOut`.
final class AuthEventBroadcaster: Sendable {
    typealias Event = (event: AuthChangeEvent, session: Session?)

    private let continuations = LockedValue<[UUID: AsyncStream<Event>.Continuation]>([:])

    /// A new stream whose first element is `(.initialSession, current())`.
    func stream(current: () -> Session?) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            self?.continuations.withValue { $0[id] = nil }
        }
        continuations.withValue {
            $0[id] = continuation
            continuation.yield((.initialSession, current()))
        }
        return stream
    }

    /// Runs `change` (which writes the session store) and emits the event it returns, if any,
    /// atomically with respect to new streams.
    func record(_ change: () throws -> Event?) rethrows {
        try continuations.withValue { continuations in
            guard let event = try change() else { return }
            for continuation in continuations.values {
                continuation.yield(event)
            }
        }
    }
}
