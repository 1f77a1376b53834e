import Foundation

extension Rereading {
    /// ``stream(following:from:read:onTermination:)`` that delivers `start` first, as a
    /// document listener's first snapshot (Firestore's `addSnapshotListener` fires at once).
    package static func listening<Signal: Sendable, Value: Sendable & Equatable>(
        following signals: AsyncStream<Signal>, from start: Value,
        read: @escaping @Sendable (_ signal: Signal, _ last: Value) async throws -> Value?,
        onTermination: @escaping @Sendable () -> Void = {}
    ) -> AsyncThrowingStream<Value, any Error> {
        let rest = stream(following: signals, from: start, read: read, onTermination: onTermination)
        return AsyncThrowingStream { continuation in
            continuation.yield(start)
            let task = Task {
                do {
                    for try await value in rest { continuation.yield(value) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
