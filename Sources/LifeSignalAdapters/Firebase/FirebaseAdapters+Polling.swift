import Foundation
import LifeSignalDomain

extension FirebaseAdapters {
    /// A stream fed by asking again every ``pollInterval``, because Firebase's realtime
    /// listeners exist only over gRPC/WebChannel, not REST.
    ///
    /// `step` gets what the previous poll left (first `start`, read before the stream is
    /// returned so nothing changed after that is missed) and returns what to remember and
    /// what to yield. A failed poll is retried on the next tick — a dropped connection must
    /// not end a live view — except when the person is signed out, which ends the stream.
    func polling<Memory: Sendable, Element: Sendable>(
        from start: Memory, step: @escaping @Sendable (Memory) async throws -> (Memory, [Element])
    ) -> AsyncThrowingStream<Element, any Error> {
        let interval = pollInterval
        return AsyncThrowingStream { continuation in
            let task = Task {
                var memory = start
                while !Task.isCancelled {
                    do {
                        try await Task.sleep(for: interval)
                        let (next, fresh) = try await step(memory)
                        memory = next
                        for element in fresh { continuation.yield(element) }
                    } catch is CancellationError {
                        break
                    } catch DomainError.unauthenticated {
                        continuation.finish(throwing: DomainError.unauthenticated)
                        return
                    } catch {
                        continue
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
