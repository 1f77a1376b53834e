import Foundation

/// Percent-encodes `string` byte by byte, keeping only RFC 3986's unreserved characters
/// (`A–Z a–z 0–9 - . _ ~`) and the bytes in `extra`; hex digits upper case, as Google's and
/// Supabase's SDKs send them.
///
/// Foundation's `addingPercentEncoding` keeps `+`, `/`, `&`, `=` and more in a query, which
/// servers read differently (PostgREST and Firebase Storage take `+` as a space, Storage ends
/// an object name at `/`), so each wire client says exactly which extra characters it keeps.
package func percentEncode(_ string: String, keeping extra: String = "") -> String {
    let extraBytes = Set(extra.utf8)
    var result = ""
    result.reserveCapacity(string.utf8.count)
    for byte in string.utf8 {
        let unreserved =
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
        if unreserved || extraBytes.contains(byte) {
            result.unicodeScalars.append(Unicode.Scalar(byte))
        } else {
            let hex = String(byte, radix: 16, uppercase: true)
            result += hex.count == 1 ? "%0" + hex : "%" + hex
        }
    }
    return result
}

/// `name=value&…`, each name and value encoded with ``percentEncode(_:keeping:)``; order kept.
package func percentEncodedQuery(_ items: [(String, String)], keeping extra: String = "") -> String {
    items.map { percentEncode($0.0, keeping: extra) + "=" + percentEncode($0.1, keeping: extra) }
        .joined(separator: "&")
}

/// The URL an already-encoded string names, when it is an absolute http(s) URL with a host.
///
/// - Throws: ``TransportError/invalidURL(_:)`` rather than crashing, because the string is
///   built from configuration and user input (a base URL, a table, a document path).
package func httpURL(_ string: String) throws -> URL {
    guard
        let url = URL(string: string),
        let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
        url.host != nil
    else { throw TransportError.invalidURL(string) }
    return url
}

extension URL {
    /// The absolute string without trailing slashes, ready to have a path appended.
    package var baseWithoutTrailingSlash: String {
        var string = absoluteString
        while string.hasSuffix("/") { string.removeLast() }
        return string
    }
}
