import Foundation
import LifeSignalDomain

/// A value bound into, or read out of, a SQL statement, the same on both engines.
///
/// PostgreSQL receives typed binary parameters (so `WHERE id = $1` compares uuids), except
/// ``literal(_:)`` which is sent untyped in text form and left for PostgreSQL to coerce to
/// whatever the context needs, as PostgREST does with filter values. SQLite stores uuids and
/// timestamps as text (see ``Timestamp``) and booleans as 0/1.
public enum SQLValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case text(String)
    case uuid(UUID)
    case timestamp(Date)
    /// JSON text, bound as `jsonb` on PostgreSQL.
    case json(String)
    /// Text whose type the database infers from context (PostgreSQL's `unknown`).
    case literal(String)
    /// Raw bytes: `bytea` on PostgreSQL, a blob on SQLite.
    case bytes(Data)

    public var isNull: Bool { self == .null }

    /// The value as text, converting numbers, uuids and timestamps; `nil` for null.
    public var textValue: String? {
        switch self {
        case .null: nil
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .text(let value), .json(let value), .literal(let value): value
        case .uuid(let value): value.uuidString.lowercased()
        case .timestamp(let value): Timestamp.format(value)
        case .bytes(let value): value.base64EncodedString()
        }
    }
}

extension SQLValue {
    public init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    public init(_ value: UUID?) { self = value.map(SQLValue.uuid) ?? .null }
    public init(_ value: Date?) { self = value.map(SQLValue.timestamp) ?? .null }
    public init(_ value: Int?) { self = value.map { .int(Int64($0)) } ?? .null }
    public init(_ value: Bool?) { self = value.map(SQLValue.bool) ?? .null }
}
