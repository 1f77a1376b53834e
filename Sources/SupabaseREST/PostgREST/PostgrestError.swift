import Foundation

/// An error reported by PostgREST: `{"code", "message", "details", "hint"}`.
///
/// `code` is a PostgREST code (`PGRST116`, …) or a Postgres SQLSTATE (`23505` unique
/// violation, `42501` permission denied, …). Thrown for every non-2xx response whose body
/// has at least a `message`, which also covers the API gateway's `{"message", "hint"}`
/// errors (invalid API key).
public struct PostgrestError: Error, Equatable, Sendable, Codable, CustomStringConvertible {
    /// The PostgREST or SQLSTATE code, when present.
    public var code: String?
    /// The human-readable message.
    public var message: String
    /// Additional detail (e.g. `Key (id)=(1) already exists.`).
    public var details: String?
    /// A suggestion from PostgREST or Postgres.
    public var hint: String?

    /// Creates an error.
    public init(code: String? = nil, message: String, details: String? = nil, hint: String? = nil) {
        self.code = code
        self.message = message
        self.details = details
        self.hint = hint
    }

    /// supabase-swift's spelling of ``details``.
    public var detail: String? { details }

    private enum CodingKeys: String, CodingKey { case code, message, details, hint }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        message = try container.decode(String.self, forKey: .message)
        code = Self.lenientString(container, .code)
        details = Self.lenientString(container, .details)
        hint = Self.lenientString(container, .hint)
    }

    /// A string, a number rendered as text, or `nil` for null/absent/other shapes: the
    /// optional fields are informative and must never make the error itself undecodable.
    private static func lenientString(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys
    ) -> String? {
        if let value = try? container.decodeIfPresent(String.self, forKey: key) { return value }
        if let value = try? container.decodeIfPresent(Int.self, forKey: key) { return String(value) }
        return nil
    }

    public var description: String {
        "PostgrestError(code: \(code ?? "nil"), message: \(message))"
    }

    /// Whether this is PostgREST's answer to a singular request that matched no row:
    /// `PGRST116` with details `The result contains 0 rows` (the number before "rows" is what
    /// tells "none" from "several" in its `details`).
    var isNoRowForSingleObject: Bool {
        guard code == "PGRST116", let details else { return false }
        let words = details.split(separator: " ")
        guard let index = words.firstIndex(where: { $0.hasPrefix("row") }), index > 0 else { return false }
        return words[index - 1] == "0"
    }
}

/// A non-2xx response whose body is not a recognised error document.
///
/// Kept raw so the caller can inspect what the server or a proxy actually sent (an HTML
/// error page, an empty 502, …).
public struct HTTPError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The raw body.
    public let data: Data
    /// The response (status and headers).
    public let response: HTTPResponse

    /// Creates an error.
    public init(data: Data, response: HTTPResponse) {
        self.data = data
        self.response = response
    }

    /// The HTTP status code.
    public var status: Int { response.status }

    public var description: String {
        "HTTPError(status: \(response.status), body: \(String(decoding: data.prefix(200), as: UTF8.self)))"
    }
}
