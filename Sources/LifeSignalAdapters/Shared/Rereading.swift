import Foundation

/// Streams of a value read again whenever something it is made of may have changed.
///
/// Change events (the embedded backend's change feed, Realtime's `postgres_changes`) tell
/// that a row changed, not what a view made of many rows now looks like, so the view is read
/// again and delivered only when it differs from the last one delivered.
package enum Rereading {
    /// Follows `signals`: for each, `read` gets the last value (first `start`) and returns the
    /// value now, or `nil` when the signal cannot concern it; a value equal to the last is not
    /// delivered. A failed read ends the stream with its error; `onTermination` runs when the
    /// stream ends either way (to leave a Realtime channel, for instance).
    package static func stream<Signal: Sendable, Value: Sendable & Equatable>(
        following signals: AsyncStream<Signal>, from start: Value,
        read: @escaping @Sendable (_ signal: Signal, _ last: Value) async throws -> Value?,
        onTermination: @escaping @Sendable () -> Void = {}
    ) -> AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                var last = start
                for await signal in signals {
                    do {
                        guard let value = try await read(signal, last) else { continue }
                        if value != last { continuation.yield(value) }
                        last = value
                    } catch {
                        continuation.finish(throwing: error)
                        return
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                task.cancel()
                onTermination()
            }
        }
    }

    /// One signal for an element of any of `streams`, and one every `interval` when given;
    /// signals not yet read are merged into one, since a single read afterwards sees every
    /// change they stand for.
    package static func merged<Element: Sendable>(_ streams: [AsyncStream<Element>], every interval: Duration? = nil) -> AsyncStream<Void> {
        let (signals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for stream in streams {
                    group.addTask { for await _ in stream { continuation.yield() } }
                }
                if let interval {
                    group.addTask {
                        while (try? await Task.sleep(for: interval)) != nil { continuation.yield() }
                    }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return signals
    }
}
