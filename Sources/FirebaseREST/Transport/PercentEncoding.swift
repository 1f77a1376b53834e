import Foundation

/// Percent-encodes `string`, keeping only RFC 3986's unreserved characters
/// (`A–Z a–z 0–9 - . _ ~`) and the bytes in `extra`.
///
/// Foundation's `addingPercentEncoding` keeps `+`, `/`, `&`, `=` and more in a query, which
/// Firebase Storage reads differently (`+` as a space, `/` ending the object name), so this
/// library encodes byte by byte. Hex digits are upper case, as Google's SDKs send them.
func firebasePercentEncode(_ string: String, keeping extra: String = "") -> String {
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

/// Encodes a list of query items as `name=value&…` with ``firebasePercentEncode(_:keeping:)``.
func firebaseQueryString(_ items: [(String, String)]) -> String {
  items.map { firebasePercentEncode($0.0) + "=" + firebasePercentEncode($0.1) }.joined(separator: "&")
}

/// Builds a URL from an already-encoded string, checking that it is an absolute http(s) URL.
///
/// - Throws: ``FirebaseTransportError/invalidURL(_:)`` rather than crashing on bad input.
func firebaseURL(_ string: String) throws -> URL {
  guard
    let url = URL(string: string),
    let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
    url.host != nil
  else { throw FirebaseTransportError.invalidURL(string) }
  return url
}

extension URL {
  /// The absolute string without trailing slashes, ready to have a path appended.
  var firebaseBase: String {
    var string = absoluteString
    while string.hasSuffix("/") { string.removeLast() }
    return string
  }
}
