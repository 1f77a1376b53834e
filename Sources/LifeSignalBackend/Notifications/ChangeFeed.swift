import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Synchronization

/// A row that changed, as Realtime's `postgres_changes` reports it.
public struct ChangeEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case insert = "INSERT"
        case update = "UPDATE"
        case delete = "DELETE"
    }

    public var table: String
    public var kind: Kind
    /// The row's primary key in text form.
    public var rowID: String
    /// The person the row belongs to (whose policy lets them read it), used to route the event
    /// to that person's subscriptions only.
    public var ownerID: UserID?
    public var at: Date

    public init(table: String, kind: Kind, rowID: String, ownerID: UserID?, at: Date) {
        self.table = table
        self.kind = kind
        self.rowID = rowID
        self.ownerID = ownerID
        self.at = at
    }
}

/// Streams committed changes to whoever listens: the server's Realtime endpoint, the Local
/// adapters' streams, tests.
///
/// Services publish only after their transaction commits, so a listener never sees a change
/// that was rolled back. Subscribers that stop iterating are removed when their stream ends.
/// Events are buffered per subscriber (newest kept) so a slow listener cannot stall a rule.
public final class ChangeFeed: Sendable {
    public struct Filter: Sendable, Hashable {
        public var table: String?
        public var ownerID: UserID?
        public init(table: String? = nil, ownerID: UserID? = nil) {
            self.table = table
            self.ownerID = ownerID
        }

        func matches(_ event: ChangeEvent) -> Bool {
            (table == nil || table == event.table) && (ownerID == nil || ownerID == event.ownerID)
        }
    }

    private let subscribers = Mutex<[UUID: (Filter, AsyncStream<ChangeEvent>.Continuation)]>([:])
    private let bufferSize: Int

    public init(bufferSize: Int = 10_000) { self.bufferSize = bufferSize }

    /// Changes matching `filter` from now on.
    public func subscribe(_ filter: Filter = Filter()) -> AsyncStream<ChangeEvent> {
        let (stream, continuation) = AsyncStream<ChangeEvent>.makeStream(bufferingPolicy: .bufferingNewest(bufferSize))
        let id = UUID()
        subscribers.withLock { $0[id] = (filter, continuation) }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    public var subscriberCount: Int { subscribers.withLock { $0.count } }

    public func publish(_ events: [ChangeEvent]) {
        guard !events.isEmpty else { return }
        let targets = subscribers.withLock { Array($0.values) }
        for (filter, continuation) in targets {
            for event in events where filter.matches(event) { continuation.yield(event) }
        }
    }
}
