import Foundation

/// How long a test waits for a stream element before giving up. Only a bound against a hang,
/// not a speed check: a cold CI machine running the whole suite in parallel is far slower
/// than a warm one.
let streamPatience: Double = 30

/// The first element of a stream that `accept` takes, or `nil` after `seconds` (or when the
/// stream ends). Earlier elements are skipped: a stream delivers each state it sees, and over
/// Realtime on SQLite a change committed just before the join can still arrive.
func firstElement<Stream: AsyncSequence & Sendable>(
    of stream: Stream, within seconds: Double = streamPatience, where accept: @escaping @Sendable (Stream.Element) -> Bool = { _ in true }
) async throws -> Stream.Element? where Stream.Element: Sendable {
    try await withThrowingTaskGroup(of: Stream.Element?.self) { group in
        group.addTask {
            for try await element in stream where accept(element) { return element }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        return result
    }
}
