import Foundation
import LifeSignalBackend
import Logging
import PostgresNIO

extension PostgresDatabase {
    /// The payloads of `NOTIFY <channel>, '<payload>'` sent to this database by anyone, from
    /// now on, for as long as the stream is iterated.
    ///
    /// The `LISTEN` runs on a connection of its own, outside the pool, because it holds that
    /// connection for good. When the connection drops, the stream reconnects with capped
    /// exponential backoff (0.1 s doubling to 5 s) and goes on; notifications sent while it was
    /// away are lost, which callers must tolerate (PostgreSQL keeps none for absent
    /// listeners). The stream only ends when the consumer stops iterating or the task is
    /// cancelled. `onListening` runs each time the `LISTEN` is in place (again after a
    /// reconnect): from then on no notification is missed.
    public func listen(channel: String, onListening: @escaping @Sendable () -> Void = {}) -> AsyncThrowingStream<String, any Error> {
        let configuration = connectionConfiguration
        let logger = self.logger
        let (stream, continuation) = AsyncThrowingStream<String, any Error>.makeStream(bufferingPolicy: .bufferingNewest(100_000))
        let task = Task {
            var delay = Duration.milliseconds(100)
            var connectionID = 1
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: connectionID, logger: logger)
                    connectionID += 1
                    delay = .milliseconds(100)
                    do {
                        try await connection.listen(on: channel) { notifications in
                            onListening()
                            for try await notification in notifications { continuation.yield(notification.payload) }
                        }
                    } catch {
                        try? await connection.close()
                        throw error
                    }
                    try? await connection.close()
                } catch {
                    if Task.isCancelled { break }
                    logger.warning("LISTEN \(channel) lost its connection; reconnecting", metadata: ["error": "\(String(reflecting: error))"])
                    try? await Task.sleep(for: delay)
                    delay = min(delay * 2, .seconds(5))
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
