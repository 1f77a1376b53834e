import Foundation

/// Percent-encodes a query name or value the way supabase-swift does.
///
/// supabase-swift starts from RFC 3986's query characters and additionally encodes every
/// sub-delimiter (`! $ & ' ( ) * + , ; =`) and `: # [ ] @`, keeping only the unreserved
/// characters plus `/` and `?`. So `*` → `%2A`, `,` → `%2C`, `%` → `%25`, space → `%20` and
/// `+` → `%2B` (PostgREST decodes `+` as a space, so a literal plus must be encoded).
func percentEncodeQueryComponent(_ string: String) -> String {
  percentEncode(string, keeping: "-._~/?")
}

/// Percent-encodes one path segment (a table or function name), keeping `/` when
/// `keepSlash` is set so that function names may carry sub-paths.
func percentEncodePathSegment(_ string: String, keepSlash: Bool) -> String {
  percentEncode(string, keeping: keepSlash ? "-._~/" : "-._~")
}

private func percentEncode(_ string: String, keeping extra: String) -> String {
  let extraBytes = Set(extra.utf8)
  var result = ""
  result.reserveCapacity(string.utf8.count)
  for byte in string.utf8 {
    let isAlphanumeric =
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    if isAlphanumeric || extraBytes.contains(byte) {
      result.unicodeScalars.append(Unicode.Scalar(byte))
    } else {
      result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
    }
  }
  return result
}

extension String {
  fileprivate func leftPadded(to length: Int) -> String {
    count >= length ? self : String(repeating: "0", count: length - count) + self
  }
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
  var string = base.absoluteString
  while string.hasSuffix("/") { string.removeLast() }
  if !path.isEmpty { string += "/" + path }
  if let segment {
    guard !segment.isEmpty else { throw TransportError.invalidURL(string + "/") }
    string += "/" + percentEncodePathSegment(segment, keepSlash: keepSlashInSegment)
  }
  if !query.isEmpty {
    string += "?" + query.map {
      percentEncodeQueryComponent($0.name) + "=" + percentEncodeQueryComponent($0.value)
    }.joined(separator: "&")
  }
  guard
    let url = URL(string: string),
    let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
    url.host != nil
  else {
    throw TransportError.invalidURL(string)
  }
  return url
}
