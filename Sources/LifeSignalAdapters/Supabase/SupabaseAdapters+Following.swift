import Foundation
import LifeSignalDomain
import SupabaseREST

extension SupabaseAdapters {
    /// One Realtime `postgres_changes` binding: a table, and an `eq` filter or none.
    struct Binding: Sendable {
        let table: String
        let filter: String?
    }

    /// A stream of `read`'s value, read again after each Realtime change of `tables`
    /// (unfiltered) or of `mine` (only rows whose given column is my id), delivered when it
    /// differs from the last.
    func followed<Value: Sendable & Equatable>(
        _ name: String, tables: [String], mine: [String: String] = [:], from read: @escaping @Sendable () async throws -> Value
    ) async throws -> AsyncThrowingStream<Value, any Error> {
        try await followed(
            name,
            bindings: { me in
                tables.map { Binding(table: $0, filter: nil) }
                    + mine.sorted { $0.key < $1.key }.map { Binding(table: $0.key, filter: "\($0.value)=eq.\(me)") }
            }, from: read)
    }

    /// A stream of `read`'s value, read again after each change of `bindings` (given my id)
    /// and, with `interval`, that often too — for what Realtime cannot route to a filter (a
    /// DELETE carries only the primary key). The channel is joined, and the first value read,
    /// before the stream is returned; that value is delivered first when `deliveringStart`
    /// (a listener's first snapshot), and the channel is left when the stream ends.
    func followed<Value: Sendable & Equatable>(
        _ name: String, bindings: @Sendable (_ me: String) -> [Binding], every interval: Duration? = nil,
        deliveringStart: Bool = false, from read: @escaping @Sendable () async throws -> Value
    ) async throws -> AsyncThrowingStream<Value, any Error> {
        let client = self.client
        return try await Self.mapped {
            let me = try await client.auth.session.user.id.uuidString.lowercased()
            let channel = client.channel("\(name)-\(me)-\(UUID().uuidString.lowercased())")
            let changes = bindings(me).map { channel.postgresChange(AnyAction.self, table: $0.table, filter: $0.filter) }
            let signals = Rereading.merged(changes, every: interval)
            let start: Value
            do {
                try await channel.subscribeWithError()
                start = try await read()
            } catch {
                await client.realtimeV2.removeChannel(channel)
                throw error
            }
            let leave: @Sendable () -> Void = { Task { await client.realtimeV2.removeChannel(channel) } }
            return deliveringStart
                ? Rereading.listening(following: signals, from: start, read: { _, _ in try await read() }, onTermination: leave)
                : Rereading.stream(following: signals, from: start, read: { _, _ in try await read() }, onTermination: leave)
        }
    }
}
