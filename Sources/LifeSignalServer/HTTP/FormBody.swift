import Foundation

/// The fields of an `application/x-www-form-urlencoded` body, in order (a name may repeat).
enum FormBody {
    static func fields(_ body: Data) -> [(String, String)] {
        String(decoding: body, as: UTF8.self).split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]) else { return nil }
            return (name, parts.count == 2 ? decode(parts[1]) ?? "" : "")
        }
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
