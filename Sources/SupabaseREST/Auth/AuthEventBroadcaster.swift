import Foundation

/// Fans auth events out to every live ``AuthClient/authStateChanges`` stream.
final class AuthEventBroadcaster: Sendable {
  typealias Event = (event: AuthChangeEvent, session: Session?)

  private let continuations = LockIsolated<[UUID: AsyncStream<Event>.Continuation]>([:])

  /// A new stream whose first element is `(.initialSession, initial)`.
  func stream(initial: Session?) -> AsyncStream<Event> {
    let (stream, continuation) = AsyncStream<Event>.makeStream()
    let id = UUID()
    continuation.onTermination = { [weak self] _ in
      self?.continuations.withValue { $0[id] = nil }
    }
    continuations.withValue { $0[id] = continuation }
    continuation.yield((.initialSession, initial))
    return stream
  }

  func emit(_ event: AuthChangeEvent, _ session: Session?) {
    for continuation in continuations.value.values {
      continuation.yield((event, session))
    }
  }
}
