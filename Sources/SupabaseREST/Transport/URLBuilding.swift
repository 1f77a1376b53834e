import Foundation

/// Percent-encodes a query name or value the way supabase-swift does.
///
/// supabase-swift starts from RFC 3986's query characters and additionally encodes every
/// sub-delimiter (`! $ & ' ( ) * + , ; =`) and `: # [ ] @`, keeping only the unreserved
/// characters plus `/` and `?`. So `*` → `%2A`, `,` → `%2C`, `%` → `%25`, space → `%20` and
/// `+` → `%2B` (PostgREST decodes `+` as a space, so a literal plus must be encoded).
func percentEncodeQueryComponent(_ string: String) -> String {
    percentEncode(string, keeping: queryKeeps)
}

/// What supabase-swift leaves unencoded in a query beyond the unreserved characters.
private let queryKeeps = "/?"

/// Percent-encodes one path segment (a table or function name), keeping `/` when
/// `keepSlash` is set so that function names may carry sub-paths.
func percentEncodePathSegment(_ string: String, keepSlash: Bool) -> String {
    percentEncode(string, keeping: keepSlash ? "/" : "")
}

/// One query parameter before encoding. Order is preserved on the wire.
struct QueryItem: Sendable, Equatable {
    var name: String
    var value: String
}

/// Builds `<base>/<path>/<segment>?<query>` without crashing on bad input.
///
/// - Parameters:
///   - base: The project URL (`https://<ref>.supabase.co`, possibly with a path prefix).
///   - path: A fixed service path such as `rest/v1`; not escaped.
///   - segment: A user-supplied name (table, function); percent-encoded.
///   - query: Parameters, encoded with ``percentEncodeQueryComponent(_:)``.
/// - Throws: ``TransportError/invalidURL(_:)`` when the result is not a valid http(s) URL.
func buildURL(
    base: URL,
    path: String,
    segment: String? = nil,
    keepSlashInSegment: Bool = false,
    query: [QueryItem] = []
) throws -> URL {
    var string = base.baseWithoutTrailingSlash
    if !path.isEmpty { string += "/" + path }
    if let segment {
        guard !segment.isEmpty else { throw TransportError.invalidURL(string + "/") }
        string += "/" + percentEncodePathSegment(segment, keepSlash: keepSlashInSegment)
    }
    if !query.isEmpty {
        string += "?" + percentEncodedQuery(query.map { ($0.name, $0.value) }, keeping: queryKeeps)
    }
    return try httpURL(string)
}
