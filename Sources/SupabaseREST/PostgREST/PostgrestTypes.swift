import Foundation

/// Which row count PostgREST computes (sent as `Prefer: count=…`).
public enum CountOption: String, Sendable {
    /// An exact `count(*)`: accurate, but slow on large tables.
    case exact
    /// The planner's estimate: fast, approximate.
    case planned
    /// Exact up to the server's `db-max-rows`, planned above it.
    case estimated
}

/// What a mutation returns (sent as `Prefer: return=…`).
public enum PostgrestReturningOptions: String, Sendable {
    /// No body (PostgREST's default).
    case minimal
    /// The affected rows, shaped by `select=`.
    case representation
}

/// The text-search flavour of ``PostgrestFilterBuilder/textSearch(_:query:config:type:)``.
public enum TextSearchType: String, Sendable {
    /// `plainto_tsquery`.
    case plain = "pl"
    /// `phraseto_tsquery`.
    case phrase = "ph"
    /// `websearch_to_tsquery`.
    case websearch = "w"
}

/// Per-call options of `execute`, as in supabase-swift.
public struct FetchOptions: Sendable {
    /// Send `HEAD` instead of `GET`: only the status and headers (e.g. a count) come back.
    public var head: Bool
    /// Ask for a row count, read back as ``PostgrestResponse/count``.
    public var count: CountOption?

    /// Creates options.
    public init(head: Bool = false, count: CountOption? = nil) {
        self.head = head
        self.count = count
    }
}

/// The outcome of a successful PostgREST request.
public struct PostgrestResponse<T> {
    /// The raw body.
    public let data: Data
    /// The HTTP response (status and headers).
    public let response: HTTPResponse
    /// The total row count, when one was requested (parsed from `Content-Range`).
    public let count: Int?
    /// The decoded body (`Void` for `execute()` without a type).
    public let value: T

    /// The HTTP status code.
    public var status: Int { response.status }

    /// Creates a response.
    public init(data: Data, response: HTTPResponse, count: Int?, value: T) {
        self.data = data
        self.response = response
        self.count = count
        self.value = value
    }
}

extension PostgrestResponse: Sendable where T: Sendable {}

/// A value whose JSON encoding is `null` even inside a container that would skip `nil`.
///
/// `Encodable` synthesis omits `nil` optionals; PostgREST then leaves those columns
/// untouched. Wrap a value in `NullEncodable` when an update must set a column to NULL
/// (e.g. restoring a soft-deleted row: `deleted_at = NULL`).
public struct NullEncodable<Wrapped: Encodable & Sendable>: Encodable, Sendable {
    /// The value, or `nil` to encode `null`.
    public var wrappedValue: Wrapped?

    /// Wraps a value.
    public init(_ wrappedValue: Wrapped?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
