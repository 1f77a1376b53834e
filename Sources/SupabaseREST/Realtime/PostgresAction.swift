import Foundation

/// A column of a changed table, as listed in each change (`{"name":"id","type":"uuid"}`).
public struct Column: Equatable, Codable, Sendable {
    /// The column name.
    public let name: String
    /// The Postgres type name (`int8`, `text`, `uuid`, `timestamptz`, …).
    public let type: String

    /// Creates a column.
    public init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}

/// A change delivered by a `postgres_changes` binding; the type picks the kind of change
/// (``InsertAction``, ``UpdateAction``, ``DeleteAction``, or ``AnyAction`` for all three).
public protocol PostgresAction: Equatable, Sendable {
    /// The event a binding for this action asks the server for.
    static var eventType: PostgresChangeEvent { get }
}

/// An action with the new row.
public protocol HasRecord {
    /// The row after the change.
    var record: JSONObject { get }
}

/// An action with the old row (only its primary key, unless the table has
/// `REPLICA IDENTITY FULL`).
public protocol HasOldRecord {
    /// The row before the change.
    var oldRecord: JSONObject { get }
}

/// An action that keeps the frame it came from.
public protocol HasRawMessage {
    /// The `postgres_changes` message as received.
    var rawMessage: RealtimeMessageV2 { get }
}

/// A row was inserted.
public struct InsertAction: PostgresAction, HasRecord, HasRawMessage {
    public static let eventType: PostgresChangeEvent = .insert

    public let columns: [Column]
    public let commitTimestamp: Date
    public let record: [String: AnyJSON]
    public let rawMessage: RealtimeMessageV2
}

/// A row was updated.
public struct UpdateAction: PostgresAction, HasRecord, HasOldRecord, HasRawMessage {
    public static let eventType: PostgresChangeEvent = .update

    public let columns: [Column]
    public let commitTimestamp: Date
    public let record: [String: AnyJSON]
    public let oldRecord: [String: AnyJSON]
    public let rawMessage: RealtimeMessageV2
}

/// A row was deleted.
public struct DeleteAction: PostgresAction, HasOldRecord, HasRawMessage {
    public static let eventType: PostgresChangeEvent = .delete

    public let columns: [Column]
    public let commitTimestamp: Date
    public let oldRecord: [String: AnyJSON]
    public let rawMessage: RealtimeMessageV2
}

/// Any change: what a binding for `*` delivers.
public enum AnyAction: PostgresAction, HasRawMessage {
    public static let eventType: PostgresChangeEvent = .all

    case insert(InsertAction)
    case update(UpdateAction)
    case delete(DeleteAction)

    public var rawMessage: RealtimeMessageV2 {
        switch self {
        case .insert(let action): action.rawMessage
        case .update(let action): action.rawMessage
        case .delete(let action): action.rawMessage
        }
    }
}

extension HasRecord {
    /// Decodes ``record`` as `T` (with ``SupabaseJSON``'s date rules by default).
    public func decodeRecord<T: Decodable>(
        as _: T.Type = T.self, decoder: JSONDecoder = SupabaseJSON.makeDecoder()
    ) throws -> T {
        try decoder.decode(T.self, from: JSONEncoder().encode(record))
    }
}

extension HasOldRecord {
    /// Decodes ``oldRecord`` as `T` (with ``SupabaseJSON``'s date rules by default).
    public func decodeOldRecord<T: Decodable>(
        as _: T.Type = T.self, decoder: JSONDecoder = SupabaseJSON.makeDecoder()
    ) throws -> T {
        try decoder.decode(T.self, from: JSONEncoder().encode(oldRecord))
    }
}
